// The server on Windows, as far as Wine shows it: the official Windows Node runs dist/server.js in a
// Wine prefix without powershell.exe (Wine's is a stub), so commands go through cmd.exe. Real files
// in temp folders (Z:\… to the server), the scripted model server on loopback, a client over the
// WebSocket listener. What Wine cannot show (PowerShell, file locking, stdin EOF) is unit-tested.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Thread, Turn } from '../../server/protocol/thread';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { commandItems, execCall } from '../support/commands';
import { patchCall } from '../support/patches';
import { tempDir } from '../support/tempDirs';
import { until } from '../support/until';
import {
  endWine,
  startWineServer,
  stopWineServer,
  windowsPath,
  wineMissing,
  type WineServer,
} from './wineServer';

interface Reverted {
  reverted: string[];
  skipped: { path: string; reason: string }[];
}

describe('the server on Windows (Wine)', function () {
  this.timeout(90_000);
  const model = useModelServer();
  const running: WineServer[] = [];
  let home: string;

  before(function () {
    const missing = wineMissing();
    if (missing) this.skip();
  });
  beforeEach(() => (home = agentHome('responses', model.baseUrl)));
  afterEach(async () => {
    for (const wine of running.splice(0)) await stopWineServer(wine);
  });
  after(endWine);

  async function serve(experimentalApi = true) {
    const wine = await startWineServer(home, agentEnv);
    running.push(wine);
    const result = await wine.client.initialize({ experimentalApi, name: 'threadline_vscode' });
    return { ...wine, result: result as Record<string, unknown> };
  }

  /** A workspace folder and the name the server knows it by. */
  function workspace(files: Record<string, string> = {}) {
    const dir = tempDir('threadline-wine-');
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return { dir, cwd: windowsPath(dir) };
  }

  async function threadIn({ client }: WineServer, cwd: string, sandbox = 'workspace-write') {
    const { thread } = await client.call<{ thread: Thread }>('thread/start', {
      cwd,
      approvalPolicy: 'never',
      sandbox,
    });
    return thread.id;
  }

  async function completedTurn({ client }: WineServer, threadId: string, text = 'Go') {
    const turn = await startTurn(client, threadId, text);
    const done = await turnCompleted(client, turn.id, 30_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    return turn.id;
  }

  it('reports Windows at initialize', async () => {
    const { result } = await serve();
    assert.equal(result.platformFamily, 'windows');
    assert.equal(result.platformOs, 'windows');
    assert.match(String(result.userAgent), /\(win32 \d+\.\d+\.\d+; x64\)/);
  });

  it('keeps a thread across a restart', async () => {
    const { cwd } = workspace();
    model.script({ output: [{ text: 'Hello from the model.' }] });
    const first = await serve();
    const threadId = await threadIn(first, cwd);
    await completedTurn(first, threadId, 'Say hello');
    await stopWineServer(running.pop()!);

    const again = await serve();
    const { data } = await again.client.call<{ data: Thread[] }>('thread/list');
    assert.deepEqual(
      data.map((t) => [t.id, t.cwd]),
      [[threadId, cwd]],
    );
    const { thread } = await again.client.call<{ thread: Thread & { turns: Turn[] } }>('thread/read', {
      threadId,
      includeTurns: true,
    });
    assert.match(JSON.stringify(thread.turns), /Hello from the model\./);
  });

  it('applies a patch that adds a file and updates a CRLF file, keeping its line breaks', async () => {
    const { dir, cwd } = workspace({ 'notes.txt': 'first\r\nold line\r\nlast\r\n' });
    model.script(patchCall(CRLF_PATCH), { output: [{ text: 'Done.' }] });
    const wine = await serve();
    await completedTurn(wine, await threadIn(wine, cwd));
    assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'first\r\nnew line\r\nlast\r\n');
    assert.equal(readFileSync(join(dir, 'src', 'added.txt'), 'utf8'), 'added\n');
  });

  it('undoes a turn: the updated file as it was, the added file gone', async () => {
    const { dir, cwd } = workspace({ 'notes.txt': 'first\r\nold line\r\nlast\r\n' });
    model.script(patchCall(CRLF_PATCH), { output: [{ text: 'Done.' }] });
    const wine = await serve();
    const threadId = await threadIn(wine, cwd);
    const turnId = await completedTurn(wine, threadId);
    assert.ok(existsSync(join(dir, 'src', 'added.txt')));

    const result = await wine.client.call<Reverted>('thread/turn/changes/revert', { threadId, turnId });
    assert.deepEqual(result.skipped, []);
    assert.deepEqual(result.reverted.sort(), [`${cwd}\\notes.txt`, `${cwd}\\src\\added.txt`]);
    assert.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'first\r\nold line\r\nlast\r\n');
    assert.equal(existsSync(join(dir, 'src', 'added.txt')), false);
  });

  it('runs echo through cmd.exe and completes with its output', async () => {
    const { cwd } = workspace();
    // %OS% is cmd's expansion, of a variable the command environment keeps on Windows.
    model.script(...execCall({ cmd: 'echo hello from %OS%' }));
    const wine = await serve();
    const turnId = await completedTurn(wine, await threadIn(wine, cwd, 'danger-full-access'));
    const [item] = commandItems(wine.client, turnId);
    assert.equal(item!.status, 'completed');
    assert.equal(item!.exitCode, 0);
    assert.equal(item!.cwd, cwd);
    assert.equal(item!.command, 'echo hello from %OS%');
    assert.match(item!.aggregatedOutput!, /^hello from Windows_NT\r?\n$/);
  });

  it('stops a long command within seconds of an interrupt', async () => {
    const { dir, cwd } = workspace();
    mkdirSync(join(dir, 'out'));
    // Output first, then a minute of pings (Wine's ping waits a second each). Wine's taskkill has no /T
    // and this prefix has no PowerShell: the tree is read from wmic, and ping goes with cmd.exe.
    model.script(...execCall({ cmd: 'echo started && ping -n 60 127.0.0.1 > nul', yield_time_ms: 60_000 }));
    const wine = await serve();
    const threadId = await threadIn(wine, cwd, 'danger-full-access');
    const turn = await startTurn(wine.client, threadId, 'Run it');
    await wine.client.next((m) => m.method === 'item/commandExecution/outputDelta', 30_000);
    const asked = Date.now();
    await wine.client.call('turn/interrupt', { threadId, turnId: turn.id });
    assert.equal((await turnCompleted(wine.client, turn.id, 30_000)).status, 'interrupted');
    const seconds = (Date.now() - asked) / 1000;
    assert.ok(seconds < 10, `the turn ended ${seconds} s after the interrupt`);
    const [item] = commandItems(wine.client, turn.id);
    assert.equal(item!.status, 'failed');
    assert.match(item!.aggregatedOutput!, /started/);
    await until(() => !pingRunning(), 10_000);
  });
});

/** Whether the command's ping still runs: Wine's processes are this machine's, named by their command line. */
function pingRunning(): boolean {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .some((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').toLowerCase();
        return command.includes('ping') && command.includes('127.0.0.1');
      } catch {
        return false;
      }
    });
}

/** Updates the middle line of a CRLF file and adds src/added.txt. */
const CRLF_PATCH = [
  '*** Begin Patch',
  '*** Update File: notes.txt',
  '@@',
  ' first',
  '-old line',
  '+new line',
  '*** Add File: src/added.txt',
  '+added',
  '*** End Patch',
].join('\n');
