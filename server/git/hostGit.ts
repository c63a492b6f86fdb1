// The one way the server runs git itself, on the host, outside any sandbox. A repository is attacker
// input: its .git/config (and every file an include.path there pulls in), .git/info/attributes,
// .gitattributes and .git/hooks can each name a program that git would run with the server's full
// environment. So git runs here only for the read-only subcommands below (and, apart, a thread worktree's
// changes and a marketplace's clone), with everything that could run a program switched off from the
// command scope, which outranks every config file:
// - core.fsmonitor=false: the fsmonitor hook runs whenever git reads the index of a working tree;
// - core.hooksPath=<the null device>: a hook (post-index-change, …) cannot exist below a device;
// - --no-ext-diff and --no-textconv on every diff-like subcommand: diff.external and diff.<driver>.command
//   are external diff programs, diff.<driver>.textconv a converter. (diff.external is not blanked in
//   config: git then tries to run an empty program and fails the diff);
// - filter.<driver>.clean/smudge/process blanked and .required=false for every driver the config defines:
//   git runs the clean filter on any working-tree file it has to re-read, for the driver a .gitattributes
//   line names. Attribute files cannot be overridden, but a driver does nothing without its definition,
//   and the definitions are listed first. A sandboxed command cannot add one in between, .git being
//   protected, unless the config already includes a file of the work tree (a hostile config to begin
//   with) and a command rewrites it at that very moment;
// - --ignore-submodules=dirty: telling whether a submodule is dirty runs `git status` in it, under a
//   config nobody listed;
// - log.showSignature=false: a signature check runs gpg.program;
// - protocol.allow=never: a partial clone fetches missing objects on demand, through core.sshCommand,
//   remote helpers, credential helpers; no transport, no fetch;
// - every GIT_* variable of the server's environment dropped (GIT_DIR, GIT_EXTERNAL_DIFF, GIT_CONFIG_*…
//   all redirect or extend the above), GIT_CONFIG_NOSYSTEM=1 (the machine's config is nobody's review),
//   GIT_OPTIONAL_LOCKS=0 (reading must not write a refreshed index, which would also run
//   post-index-change), GIT_TERMINAL_PROMPT=0, GIT_NO_LAZY_FETCH=1 (git 2.44+; protocol.allow covers older).
// The user's global config stays: it is the user's own, and its programs are switched off the same way.
// git itself is found on the PATH's absolute folders only: on Windows a bare name is looked up in the
// current folder first, and a repository may hold a git.exe.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { devNull } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';

/** Runs one git subcommand in the repository; resolves with stdout when git exits with an ok code. */
export type HostGit = (args: string[], okCodes?: number[]) => Promise<string>;

/** git failed, could not start, or took too long. */
export class HostGitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

// Only subcommands that read, each known not to run anything once the config below is set.
const DIFF_LIKE = new Set(['diff', 'show']);
const READ_ONLY = new Set([
  ...DIFF_LIKE,
  'rev-parse',
  'ls-files',
  'merge-base',
  'cat-file',
  'status',
  'rev-list',
]);
// What a thread's git worktree needs besides (server/git/worktrees.ts), each with the programs it could
// run switched off below: hooks (post-checkout, pre-commit, post-merge…) by core.hooksPath, checkout's
// smudge and add's clean filters by the blanked drivers, signing (commit.gpgSign,
// merge.verifySignatures) off, no automatic gc or maintenance (which start git again, in the
// background), no submodule recursion, and no editor: callers pass -m. A merge here is a fast-forward
// only: a content merge would run the merge driver a .gitattributes line names (merge.<driver>.driver),
// which no config can switch off; contents are merged with merge-file, which reads no attributes and
// only prints (-p).
const CHANGING = new Set(['worktree', 'branch', 'merge', 'add', 'commit', 'merge-file']);
const CHANGING_CONFIG: [string, string][] = [
  ['commit.gpgSign', 'false'],
  ['merge.verifySignatures', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['submodule.recurse', 'false'],
  ['core.editor', ''],
];
const DIFF_GUARDS = ['--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty'];

const FIXED_CONFIG: [string, string][] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', devNull],
  ['log.showSignature', 'false'],
  ['protocol.allow', 'never'],
  ['core.quotepath', 'off'],
];
const DRIVER_KEY = /^filter\.(.+)\.(?:clean|smudge|process|required)$/s;
// Thousands of drivers would only be there to blow the environment's size limit.
const MAX_DRIVERS = 500;
const TIMEOUT_MS = 120_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** A runner for the repository (or folder) at cwd, with every filter driver its config defines off. */
export async function openHostGit(cwd: string): Promise<HostGit> {
  const config = await guardedConfig(cwd);
  return (args, okCodes = [0]) => run(cwd, args, config, okCodes, READ_ONLY);
}

/**
 * A runner that may also change the repository (worktree, branch, merge, add, commit), for a thread's
 * git worktree only; `identity` sets who commits (Threadline's own snapshot commits of a worktree).
 */
export async function openChangingHostGit(
  cwd: string,
  identity?: { name: string; email: string },
): Promise<HostGit> {
  const config = [...(await guardedConfig(cwd)), ...CHANGING_CONFIG];
  if (identity) config.push(['user.name', identity.name], ['user.email', identity.email]);
  const allowed = new Set([...READ_ONLY, ...CHANGING]);
  return (args, okCodes = [0]) => run(cwd, args, config, okCodes, allowed);
}

// Cloning a plugin marketplace (server/plugins/marketplaceClone.ts), the one transport the host runs.
// The clone is new: it has no repository config yet, only the user's own, whose filter drivers are
// blanked as above. Only the transports a marketplace URL may name are allowed (never ext::, which
// runs a command); checkout writes a link as a plain file holding its target (core.symlinks=false),
// so no link of the remote's can lead out of the clone; received objects are checked; no template
// (its hooks), no submodules, no tags, only the newest commit.
const CLONE_CONFIG: [string, string][] = [
  ['protocol.file.allow', 'always'],
  ['protocol.https.allow', 'always'],
  ['protocol.http.allow', 'always'],
  ['protocol.ssh.allow', 'always'],
  ['core.symlinks', 'false'],
  ['transfer.fsckObjects', 'true'],
  ['submodule.recurse', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
];

/**
 * Clones `url` (at branch or tag `ref`) into `target`, a folder that does not exist yet, in `parent`;
 * with `sparse` (gitignore-style patterns), only what they match is checked out.
 */
export async function cloneOnHost(
  parent: string,
  url: string,
  target: string,
  ref: string | null,
  sparse: string[] = [],
): Promise<void> {
  if ([url, ref ?? '', ...sparse].some((arg) => arg.startsWith('-'))) {
    throw new HostGitError('a URL, ref or sparse path may not start with "-"', null);
  }
  const config = [...(await guardedConfig(parent)), ...CLONE_CONFIG];
  const branch = ref === null ? [] : ['--branch', ref];
  const checkout = sparse.length ? ['--no-checkout'] : [];
  const args = ['clone', '--quiet', '--depth=1', '--no-tags', '--template=', ...branch, ...checkout];
  await spawnGit(parent, [...args, '--', url, target], config, [0]);
  if (!sparse.length) return;
  const dir = join(parent, target);
  await spawnGit(dir, ['sparse-checkout', 'set', '--no-cone', '--', ...sparse], config, [0]);
  await spawnGit(dir, ['checkout', '--quiet'], config, [0]);
}

/** The fixed config plus every filter driver the repository's config defines, blanked. */
async function guardedConfig(cwd: string): Promise<[string, string][]> {
  const listed = await spawnGit(cwd, ['config', '--list', '-z', '--name-only'], FIXED_CONFIG, [0, 1]);
  const drivers = new Set<string>();
  for (const key of listed.split('\0')) {
    const driver = DRIVER_KEY.exec(key)?.[1];
    if (driver !== undefined) drivers.add(driver);
  }
  if (drivers.size > MAX_DRIVERS) {
    throw new HostGitError(`the repository's config defines ${drivers.size} filter drivers`, null);
  }
  const config = [...FIXED_CONFIG];
  for (const driver of drivers) {
    for (const key of ['clean', 'smudge', 'process']) config.push([`filter.${driver}.${key}`, '']);
    config.push([`filter.${driver}.required`, 'false']);
  }
  return config;
}

function run(
  cwd: string,
  args: string[],
  config: [string, string][],
  okCodes: number[],
  allowed: Set<string>,
): Promise<string> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined || !allowed.has(subcommand)) {
    return Promise.reject(new HostGitError(`git ${subcommand ?? ''} is not run on the host`, null));
  }
  if (
    (subcommand === 'merge' && !rest.includes('--ff-only')) ||
    (subcommand === 'merge-file' && !rest.includes('-p'))
  ) {
    return Promise.reject(
      new HostGitError(
        `git ${subcommand} runs here only with ${subcommand === 'merge' ? '--ff-only' : '-p'}`,
        null,
      ),
    );
  }
  const guards = DIFF_LIKE.has(subcommand) ? DIFF_GUARDS : [];
  return spawnGit(cwd, [subcommand, ...guards, ...rest], config, okCodes);
}

function spawnGit(
  cwd: string,
  args: string[],
  config: [string, string][],
  okCodes: number[],
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(gitExecutable(), ['--no-pager', ...args], {
      cwd,
      env: gitEnvironment(config),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: TIMEOUT_MS,
      windowsHide: true,
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > MAX_OUTPUT_BYTES) child.kill();
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4096) err += chunk.toString('utf8');
    });
    child.on('error', (error) => reject(new HostGitError(`git could not run: ${error.message}`, null)));
    child.on('close', (code, signal) => {
      if (code !== null && okCodes.includes(code) && outBytes <= MAX_OUTPUT_BYTES) {
        resolve(Buffer.concat(out).toString('utf8'));
        return;
      }
      const why = signal ? `was stopped (${signal})` : `exited with ${code}`;
      reject(new HostGitError(`git ${args[0]} ${why}: ${err.trim()}`, code));
    });
  });
}

function gitEnvironment(config: [string, string][]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.toUpperCase().startsWith('GIT_')) env[name] = value;
  }
  // GIT_CONFIG_KEY_n/VALUE_n carry each key and value apart, so a driver name holding '=' or spaces
  // cannot be misread the way `-c name=value` would split it.
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(config.length);
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_OPTIONAL_LOCKS = '0';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_NO_LAZY_FETCH = '1';
  return env;
}

let found: string | undefined;

function gitExecutable(): string {
  if (found) return found;
  const name = process.platform === 'win32' ? 'git.exe' : 'git';
  const pathVariable = Object.keys(process.env).find((key) => key.toUpperCase() === 'PATH');
  for (const folder of (pathVariable ? process.env[pathVariable]! : '').split(delimiter)) {
    if (!isAbsolute(folder)) continue;
    const candidate = join(folder, name);
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return (found = candidate);
  }
  throw new HostGitError('git was not found on the PATH', null);
}
