// Plan mode held by the server, not by the model's good will: a scripted model that ignores its
// instructions calls apply_patch and writing commands in plan mode under the most permissive
// policies there are (never ask, full access). Nothing may change on disk and nobody is asked; reads
// still run. The same calls in the default mode do change the files, so it is the mode that stops them.
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedResponse } from '../fixtures/modelServer/scenario';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { commandItems, gitRepo } from '../support/commands';
import { MARKERS, questionsAsked, stdioServer, toolCall } from '../support/mcpFixture';
import { patchCall } from '../support/patches';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';

const ADD_FILE = ['*** Begin Patch', '*** Add File: planted.txt', '+pwned', '*** End Patch'].join('\n');
const PERMISSIVE = { approvalPolicy: 'never', sandboxPolicy: { type: 'dangerFullAccess' } };
const mode = (name: 'plan' | 'default', model = 'test-model') => ({ mode: name, settings: { model } });

const exec = (cmd: string, callId: string, extra: Record<string, unknown> = {}): ScriptedResponse => ({
  output: [{ toolCall: { name: 'exec_command', arguments: JSON.stringify({ cmd, ...extra }), callId } }],
});
/** What the model was given back for one call, from the request after it. */
function toolOutput(request: { body: unknown }, callId: string): string {
  const input = (request.body as { input: { type: string; call_id?: string; output?: unknown }[] }).input;
  const found = input.find((entry) => entry.call_id === callId && entry.type.endsWith('_output'));
  assert.ok(found, `no output for ${callId}`);
  return JSON.stringify(found.output);
}

describe('plan mode is enforced by the server', function () {
  this.timeout(60_000);
  const model = useModelServer();
  const start = useServers();
  let repo: string;
  let server: ServerProcess;
  let threadId: string;
  /** Where the MCP fixture's tools leave a file when they really ran. */
  let markers: string;

  beforeEach(async () => {
    repo = gitRepo();
    markers = tempDir('threadline-plan-markers-');
    const home = agentHome('responses', model.baseUrl);
    // The user approved every tool of this server in config: outside plan mode they run unasked.
    const app = [
      '[apps.db]',
      'name = "DB"',
      'mcp_server = "db"',
      'default_tools_approval_mode = "approve"',
      '',
    ];
    appendFileSync(
      join(home, 'config.toml'),
      `\n${stdioServer('db').replaceAll(MARKERS, markers)}${app.join('\n')}`,
    );
    server = await start(home, 'threadline_vscode', agentEnv, {
      experimentalApi: true,
    });
    ({
      thread: { id: threadId },
    } = await server.call<{ thread: { id: string } }>('thread/start', { cwd: repo }));
  });

  async function turn(
    collaborationMode: ReturnType<typeof mode>,
    policy: Record<string, unknown> = PERMISSIVE,
  ) {
    const started = await startTurn(server, threadId, 'go', { collaborationMode, ...policy });
    assert.equal((await turnCompleted(server, started.id, 30_000)).status, 'completed');
    return started.id;
  }

  it('refuses apply_patch and writing commands, asks nobody, and still runs reads', async () => {
    model.script(
      patchCall(ADD_FILE, 'c_patch'),
      exec('echo pwned > planted.txt', 'c_redirect'),
      exec('sed -i s/demo/pwned/ README.md', 'c_sed'),
      exec('find . -name README.md -delete', 'c_find'),
      exec('touch planted.txt', 'c_escalated', {
        sandbox_permissions: 'require_escalated',
        justification: 'x',
      }),
      exec('cat README.md', 'c_read'),
      { output: [{ text: '<proposed_plan>\n1. Add planted.txt\n</proposed_plan>' }] },
    );
    const turnId = await turn(mode('plan'));

    assert.equal(existsSync(join(repo, 'planted.txt')), false, 'nothing was planted');
    assert.equal(readFileSync(join(repo, 'README.md'), 'utf8'), '# demo\n', 'README.md untouched');
    assert.equal(server.received.filter((m) => m.method?.endsWith('requestApproval')).length, 0);
    const last = model.requests.at(-1)!;
    assert.match(toolOutput(last, 'c_patch'), /apply_patch does not run in plan mode/);
    for (const id of ['c_redirect', 'c_sed', 'c_find', 'c_escalated'])
      assert.match(toolOutput(last, id), /This is plan mode: only commands known to only read/, id);
    assert.match(toolOutput(last, 'c_read'), /# demo/, 'a read still runs');
    const items = commandItems(server, turnId);
    assert.deepEqual(
      items.map((i) => [i.command, i.status]),
      [
        ['echo pwned > planted.txt', 'declined'],
        ['sed -i s/demo/pwned/ README.md', 'declined'],
        ['find . -name README.md -delete', 'declined'],
        ['touch planted.txt', 'declined'],
        ['cat README.md', 'completed'],
      ],
    );
  });

  it('an approval the user would give cannot make a writing command run in plan mode', async () => {
    model.script(exec('echo pwned > planted.txt', 'c_write'), { output: [{ text: 'Planned.' }] });
    await turn(mode('plan'), { approvalPolicy: 'untrusted' });
    assert.equal(server.received.filter((m) => m.method?.endsWith('requestApproval')).length, 0, 'not asked');
    assert.equal(existsSync(join(repo, 'planted.txt')), false);
    assert.match(toolOutput(model.requests.at(-1)!, 'c_write'), /This is plan mode/);
  });

  it('runs an MCP tool only if it says it only reads, even one the user approved in config', async () => {
    model.script(
      toolCall('mcp__db__drop_table', { table: 'users' }, 'c_drop'),
      toolCall('mcp__db__note', { text: 'remember' }, 'c_note'),
      toolCall('mcp__db__echo', { text: 'hello' }, 'c_echo'),
      { output: [{ text: 'Planned.' }] },
    );
    await turn(mode('plan'));
    assert.equal(questionsAsked(server), 0);
    assert.equal(existsSync(join(markers, 'dropped')), false, 'the destructive tool never ran');
    assert.equal(existsSync(join(markers, 'noted')), false, 'nor the one that says nothing of itself');
    const last = model.requests.at(-1)!;
    for (const id of ['c_drop', 'c_note'])
      assert.match(toolOutput(last, id), /plan mode runs only tools that say/);
    assert.match(toolOutput(last, 'c_echo'), /echo: hello/);

    model.script(toolCall('mcp__db__drop_table', { table: 'users' }, 'c_drop2'), {
      output: [{ text: 'Done.' }],
    });
    await turn(mode('default'));
    assert.ok(existsSync(join(markers, 'dropped')), 'out of plan mode the approved tool runs');
  });

  it('the same calls change the files once the thread is back in the default mode', async () => {
    model.script(patchCall(ADD_FILE, 'c_patch'), { output: [{ text: 'Planned.' }] });
    await turn(mode('plan'));
    assert.equal(existsSync(join(repo, 'planted.txt')), false);

    model.script(patchCall(ADD_FILE, 'c_patch2'), exec('echo more >> planted.txt', 'c_append'), {
      output: [{ text: 'Done.' }],
    });
    // An empty model (a client that does not know the thread's yet) keeps the thread's.
    await turn(mode('default', ''));
    assert.equal(readFileSync(join(repo, 'planted.txt'), 'utf8'), 'pwned\nmore\n');
    assert.equal((model.requests.at(-1)!.body as { model: string }).model, 'test-model');
  });
});
