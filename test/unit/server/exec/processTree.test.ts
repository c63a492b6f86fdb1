// Which way a command's process tree is started and killed on each platform. The Windows strategy
// (taskkill /T /F, else the tree read from parent ids and each process ended) is checked with the
// platform and the programs it runs injected; the Unix group kill runs for real on real bash.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import {
  descendantsOf,
  exitCodeOf,
  killTree,
  LIST_PROCESSES_ARGV,
  WMIC_LIST_ARGV,
  decodeOutput,
  taskkillArgv,
  treeSpawnOptions,
} from '../../../../server/exec/processTree';
import { until } from '../../../support/until';

describe('process trees', () => {
  it('starts a Unix command in its own group, a Windows one without a console window or group', () => {
    assert.deepEqual(treeSpawnOptions('linux'), { detached: true, windowsHide: true });
    assert.deepEqual(treeSpawnOptions('darwin'), { detached: true, windowsHide: true });
    assert.deepEqual(treeSpawnOptions('win32'), { detached: false, windowsHide: true });
  });

  it('reports a signal as 128 + its number on Unix, and only an exit code on Windows', () => {
    assert.equal(exitCodeOf(null, 'SIGKILL', 'linux'), 137);
    assert.equal(exitCodeOf(null, 'SIGTERM', 'darwin'), 143);
    assert.equal(exitCodeOf(3, null, 'linux'), 3);
    assert.equal(exitCodeOf(null, 'SIGTERM', 'win32'), 1);
    assert.equal(exitCodeOf(0xc000013a, null, 'win32'), 0xc000013a);
  });

  it('walks a tree from `pid parentPid` lines, parents first, ignoring noise and loops', () => {
    const listing = [
      '0 0',
      '4 0',
      '100 4',
      '200 100',
      '201 100',
      '300 200',
      '999 4',
      'junk',
      '',
      '100 300',
    ].join('\r\n');
    assert.deepEqual(descendantsOf(100, listing), [100, 200, 201, 300]);
    assert.deepEqual(descendantsOf(42, listing), [42]);
  });

  describe('killing on Windows', () => {
    function windows(answers: Map<string, string | null>) {
      const ran: string[][] = [];
      const killed: number[] = [];
      const run = (argv: string[]) => {
        ran.push(argv);
        return Promise.resolve(answers.get(argv[0]!) ?? null);
      };
      const kill = (pid: number) => {
        killed.push(pid);
        if (pid === 201) throw new Error('ESRCH');
      };
      return { ran, killed, run, kill };
    }

    it('takes the tree with taskkill /T /F when taskkill can', async () => {
      const host = windows(new Map([['taskkill.exe', 'SUCCESS']]));
      await killTree(100, 'win32', host.run, host.kill);
      assert.deepEqual(host.ran, [['taskkill.exe', '/PID', '100', '/T', '/F']]);
      assert.deepEqual(host.killed, []);
      assert.deepEqual(taskkillArgv(7), ['taskkill.exe', '/PID', '7', '/T', '/F']);
    });

    it('walks the tree by parent ids and ends each process where taskkill cannot (Wine)', async () => {
      const host = windows(new Map([['powershell.exe', '100 4\n200 100\n201 100\n300 200\n']]));
      await killTree(100, 'win32', host.run, host.kill);
      assert.deepEqual(host.ran, [taskkillArgv(100), LIST_PROCESSES_ARGV]);
      assert.deepEqual(host.killed, [100, 200, 201, 300]);
    });

    it('reads the tree from wmic where PowerShell is missing, its UTF-16 and column order too', async () => {
      const listing = 'ParentProcessIdProcessId\r\n4    100  \r\n100  200  \r\n200  300  \r\n\r\n';
      const host = windows(new Map([['wmic.exe', listing]]));
      await killTree(100, 'win32', host.run, host.kill);
      assert.deepEqual(host.ran, [taskkillArgv(100), LIST_PROCESSES_ARGV, WMIC_LIST_ARGV]);
      assert.deepEqual(host.killed, [100, 200, 300]);
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(listing, 'utf16le')]);
      assert.equal(decodeOutput(utf16), listing);
      assert.equal(decodeOutput(Buffer.from('100 4\n')), '100 4\n');
    });

    it('still ends the command itself when the tree cannot be read', async () => {
      const host = windows(new Map());
      await killTree(100, 'win32', host.run, host.kill);
      assert.deepEqual(host.killed, [100]);
    });
  });

  it('kills a Unix group, background children included, and never throws once it is gone', async function () {
    if (process.platform === 'win32') this.skip();
    const child = spawn('bash', ['-c', 'sleep 60 & echo $!; wait'], { ...treeSpawnOptions(), stdio: 'pipe' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await until(() => /\d+\n/.test(out));
      const background = Number(out.trim());
      const alive = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      assert.ok(alive(background));
      await killTree(child.pid!);
      await exited;
      await until(() => !alive(background));
      await killTree(child.pid!);
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
  });
});
