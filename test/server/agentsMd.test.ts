// AGENTS.md through the real server and the scripted model: the user's file in Threadline's home and the
// project's, from the repository's root down to the thread's folder (an override in place of its
// folder's file, nothing from above the root), in that order; an edit applies to the next turn; the
// project's files are cut off past Codex's 32 KiB.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startThread, startTurn, turnCompleted } from '../support/agent';
import { ServerProcess, tempDir } from '../support/serverProcess';

const instructionsOf = (request: { body: { instructions?: string } }) => request.body.instructions ?? '';

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

  async function turn(home: string, cwd: string, prompts: string[]) {
    server = ServerProcess.start({ home, env: agentEnv });
    await server.initialize({ name: 'threadline_vscode' });
    const threadId = await startThread(server, cwd);
    const requests: string[] = [];
    for (const prompt of prompts) {
      model.script({ output: [{ text: 'OK.' }] });
      const { id } = await startTurn(server, threadId, prompt);
      assert.equal((await turnCompleted(server, id)).status, 'completed');
      requests.push(instructionsOf(model.requests[model.requests.length - 1]!));
    }
    return requests;
  }

  it("tells the model the user's and the project's files, root first, overrides in place", async () => {
    const { outside, root, pkg } = project();
    const home = agentHome('responses', model.baseUrl);
    writeFileSync(join(home, 'AGENTS.md'), 'Answer in British English.\n');
    writeFileSync(join(outside, 'AGENTS.md'), 'ABOVE THE REPOSITORY\n');
    writeFileSync(join(root, 'AGENTS.md'), 'Run npm test before you finish.\n');
    mkdirSync(join(root, 'packages'), { recursive: true });
    writeFileSync(join(root, 'packages', 'AGENTS.md'), 'REPLACED BY THE OVERRIDE\n');
    writeFileSync(join(root, 'packages', 'AGENTS.override.md'), 'Packages are published from CI only.\n');
    writeFileSync(join(pkg, 'AGENTS.md'), 'This app uses React.\n');

    const [first] = await turn(home, pkg, ['Hello']);
    const order = ['British English', 'npm test', 'published from CI', 'uses React'].map((text) =>
      first!.indexOf(text),
    );
    assert.ok(
      order.every((at) => at > 0),
      first,
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      'home, root, packages, app',
    );
    assert.match(first!, /## packages\/AGENTS\.override\.md/);
    assert.doesNotMatch(first!, /ABOVE THE REPOSITORY|REPLACED BY THE OVERRIDE/);
  });

  it('reads an edit at the next turn and cuts the project files off past 32 KiB', async () => {
    const { root } = project();
    const home = agentHome('responses', model.baseUrl);
    writeFileSync(join(root, 'AGENTS.md'), 'Version one.\n');
    server = ServerProcess.start({ home, env: agentEnv });
    await server.initialize({ name: 'threadline_vscode' });
    const threadId = await startThread(server, root);
    const instructions: string[] = [];
    for (const text of ['Version two.\n', `${'x'.repeat(40 * 1024)}\nTHE END\n`]) {
      model.script({ output: [{ text: 'OK.' }] });
      const { id } = await startTurn(server, threadId, 'Go');
      await turnCompleted(server, id);
      instructions.push(instructionsOf(model.requests[model.requests.length - 1]!));
      writeFileSync(join(root, 'AGENTS.md'), text);
    }
    model.script({ output: [{ text: 'OK.' }] });
    const { id } = await startTurn(server, threadId, 'Go');
    await turnCompleted(server, id);
    instructions.push(instructionsOf(model.requests[model.requests.length - 1]!));

    assert.match(instructions[0]!, /Version one\./);
    assert.match(instructions[1]!, /Version two\./);
    assert.doesNotMatch(instructions[1]!, /Version one\./);
    assert.match(instructions[2]!, /\[cut off: the project's AGENTS\.md files may hold 32768 bytes\]/);
    assert.doesNotMatch(instructions[2]!, /THE END/);
  });

  it('adds nothing when there is no AGENTS.md', async () => {
    const { pkg } = project();
    const [first] = await turn(agentHome('responses', model.baseUrl), pkg, ['Hello']);
    assert.doesNotMatch(first!, /AGENTS\.md/);
  });
});
