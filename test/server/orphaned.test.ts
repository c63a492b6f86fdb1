// A server whose client died without closing its input (the editor was killed): its output and log
// pipes break. It must shut down rather than linger, and never spin on the broken log pipe.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { serverBundle } from '../support/paths';
import { tempDir } from '../support/serverProcess';

describe('a server whose client is gone', function () {
  it('exits when its output breaks, though its input stays open', async () => {
    const child = spawn(process.execPath, [serverBundle, 'app-server'], {
      env: { ...process.env, THREADLINE_HOME: tempDir(), THREADLINE_LOG: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ id: 1, method: 'initialize', params: { clientInfo: { name: 'gone', version: '1' } } });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    child.stderr.destroy();
    for (let id = 2; id < 50; id++) send({ id, method: 'thread/loaded/list' });
    const timeout = new Promise<'still running'>((resolve) =>
      setTimeout(() => resolve('still running'), 8000),
    );
    const outcome = await Promise.race([exited, timeout]);
    if (outcome === 'still running') child.kill('SIGKILL');
    assert.equal(outcome, 0);
  });
});
