// AGENTS.md through the real server and the scripted model: the user's file in Threadline's home and the
// project's, from the repository's root down to the thread's folder (an override in place of its
// folder's file, nothing from above the root), in that order; an edit applies to the next turn; the
// project's files are cut off past Codex's 32 KiB.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import {
  agentEnv,
  agentHome,
  contextMessagesOf,
  instructionsOf,
  newestContextOf,
  startThread,
  startTurn,
  turnCompleted,
} from '../support/agent';
import { ServerProcess, tempDir } from '../support/serverProcess';

describe('AGENTS.md', function () {
  const model = useModelServer();
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  /** A folder above a repository, the repository, and a package folder inside it. */
  function project() {
    const outside = tempDir('threadline-agents-');
    const root = join(outside, 'repo');
    const pkg = join(root, 'packages', 'app');
    mkdirSync(pkg, { recursive: true });
    execFileSync('git', ['init', '-q', root]);
    return { outside, root, pkg };
  }

  /** A thread in `cwd`; each call of the function it returns runs a turn and answers its newest context message. */
  async function threadIn(home: string, cwd: string): Promise<() => Promise<string>> {
    server = ServerProcess.start({ home, env: agentEnv });
    await server.initialize({ name: 'threadline_vscode' });
    const threadId = await startThread(server, cwd);
    return async () => {
      model.script({ output: [{ text: 'OK.' }] });
      await turnCompleted(server!, (await startTurn(server!, threadId, 'Go')).id);
      return newestContextOf(model.requests.at(-1)!);
    };
  }

  it("tells the model the user's and the project's files, root first, overrides in place", async () => {
    const { outside, root, pkg } = project();
    const home = agentHome('responses', model.baseUrl);
    writeFileSync(join(home, 'AGENTS.md'), 'Answer in British English.\n');
    writeFileSync(join(outside, 'AGENTS.md'), 'ABOVE THE REPOSITORY\n');
    writeFileSync(join(root, 'AGENTS.md'), 'Run npm test before you finish.\n');
    writeFileSync(join(root, 'packages', 'AGENTS.md'), 'REPLACED BY THE OVERRIDE\n');
    writeFileSync(join(root, 'packages', 'AGENTS.override.md'), 'Packages are published from CI only.\n');
    writeFileSync(join(pkg, 'AGENTS.md'), 'This app uses React.\n');

    const instructions = await (await threadIn(home, pkg))();
    const order = ['British English', 'npm test', 'published from CI', 'uses React'].map((text) =>
      instructions.indexOf(text),
    );
    assert.ok(
      order.every((at) => at > 0),
      instructions,
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      'home, root, packages, app',
    );
    assert.match(instructions, /## packages\/AGENTS\.override\.md/);
    assert.doesNotMatch(instructions, /ABOVE THE REPOSITORY|REPLACED BY THE OVERRIDE/);
  });

  it('reads an edit at the next turn and cuts the project files off past 32 KiB', async () => {
    const { root } = project();
    writeFileSync(join(root, 'AGENTS.md'), 'Version one.\n');
    const turn = await threadIn(agentHome('responses', model.baseUrl), root);
    const first = await turn();
    writeFileSync(join(root, 'AGENTS.md'), 'Version two.\n');
    const second = await turn();
    writeFileSync(join(root, 'AGENTS.md'), `${'x'.repeat(40 * 1024)}\nTHE END\n`);
    const third = await turn();

    assert.match(first, /Version one\./);
    assert.match(second, /Version two\./);
    assert.doesNotMatch(second, /Version one\./);
    assert.match(third, /\[cut off: the project's AGENTS\.md files may hold 32768 bytes\]/);
    assert.doesNotMatch(third, /THE END/);
    // An edit is appended as an update; what the model was told before stays as it was sent, and the
    // system prompt does not move, so each request extends the one before it.
    const [one, two, three] = model.requests.slice(-3);
    assert.match(second, /^<threadline_context_update>/);
    assert.deepEqual(contextMessagesOf(three!).slice(0, 2), contextMessagesOf(two!));
    assert.deepEqual(contextMessagesOf(two!).slice(0, 1), contextMessagesOf(one!));
    assert.equal(instructionsOf(three!), instructionsOf(one!));
    assert.doesNotMatch(instructionsOf(one!), /Version one/);
  });

  it('adds nothing when there is no AGENTS.md', async () => {
    const { pkg } = project();
    const context = await (await threadIn(agentHome('responses', model.baseUrl), pkg))();
    assert.match(context, /^<threadline_context>\nWorking directory: /);
    // The shell commands run in (server/exec/shellSelection.ts): bash on this machine.
    assert.match(context, /\nShell: bash\n/);
    assert.doesNotMatch(context, /AGENTS\.md/);
  });
});
