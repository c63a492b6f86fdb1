// The approval gate's reading of command lines against what real /bin/bash does with them. Every line
// of the corpus the gate calls known-safe is run by bash in a scratch repository with canary files
// and a PATH whose writers and shells are recording stubs: it must change no file (tree, sizes,
// modes and mtimes before and after, the stubs' record included) and run no stub. The scratch
// holds canaries for what a builtin could change for the rest of a line: a planted `./ls` (PATH),
// a folder of look-alikes beside the repository (PATH), a `.gitconfig` whose fsmonitor touches a
// file outside the repository (HOME), a script for BASH_CMDS; every builtin attack trips one, so
// they are known to work. Every bash builtin and keyword but the audited few is never safe. And
// every line the gate calls plain is run with every program it names replaced by a recorder: bash must run
// exactly the argv lists the gate read.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isKnownSafe, KNOWN_SAFE_NAMES, SAFE_BUILTINS } from '../../../../server/approvals/safeCommands';
import { parseCommandLine, type CommandLine } from '../../../../server/exec/commandLine';
import { BUILTIN_ATTACKS, BUILTIN_MUST_ASK } from '../../../fixtures/builtinCorpus';
import {
  GLOBS_INTO_OPTIONS,
  INJECTIONS,
  ISSUE_ATTACKS,
  LAUNCHERS,
  mutatedLines,
  READ_ONLY,
  UNSAFE_OPTIONS,
} from '../../../fixtures/commandCorpus';
import { tempDir } from '../../../support/serverProcess';

const BASH = '/bin/bash';
// Programs a harmful line would run: each is a stub that records the call and does nothing.
const STUBBED = ['touch', 'rm', 'curl', 'wget', 'sh', 'dash', 'zsh', 'python', 'python3', 'node', 'perl'];
const STUBBED_TOO = ['mv', 'cp', 'tee', 'dd', 'chmod', 'mkdir', 'ln', 'xargs', 'env', 'sudo', 'nc', 'awk'];
// Bash builtins that only print or test: bash runs them itself, so no recorder sees them.
const BUILTINS = new Set(['cd', 'echo', 'pwd', 'true', 'false', ':', 'test', '[']);
// Builtins that run another command or file: what runs is not their argv.
const RUNNERS = new Set(['.', 'source', 'exec', 'eval', 'command', 'builtin', 'time']);

const HOSTILE = [
  ...ISSUE_ATTACKS,
  ...BUILTIN_ATTACKS,
  ...BUILTIN_MUST_ASK,
  ...UNSAFE_OPTIONS,
  ...GLOBS_INTO_OPTIONS,
  ...LAUNCHERS,
  ...INJECTIONS,
];
const CORPUS = [...new Set([...READ_ONLY, ...HOSTILE, ...mutatedLines()])];

function write(path: string, content: string, mode = 0o644): void {
  writeFileSync(path, content);
  chmodSync(path, mode);
}

/** Every file and folder under `root` with its size, mode, mtime and (for files) content. */
function snapshot(root: string): Map<string, string> {
  const state = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      const content = stat.isFile() ? readFileSync(path).toString('base64') : '';
      // git status takes and drops an optional lock in .git (inside the sandbox .git is read-only):
      // that touches the folder's mtime only; everything in it is still compared.
      const mtime = name === '.git' ? '' : stat.mtimeMs;
      state.set(path, `${stat.mode}:${stat.size}:${mtime}:${content}`);
      if (stat.isDirectory()) walk(path);
    }
  };
  walk(root);
  return state;
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [path, state] of after) if (before.get(path) !== state) changed.push(path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(`${path} (removed)`);
  return changed;
}

describe('the approval gate against real bash', function () {
  this.timeout(180_000);
  let root: string;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  const lines = new Map<string, CommandLine>();
  // Bash's builtins and reserved words, as this bash lists them.
  let shellNames: Set<string>;

  before(async () => {
    root = tempDir('threadline-bash-diff-');
    repo = join(root, 'repo');
    const home = join(root, 'home');
    const stubs = join(root, 'stubs');
    for (const dir of [repo, home, stubs, join(repo, 'src'), join(repo, 'bin'), join(repo, 'node_modules')]) {
      mkdirSync(dir, { recursive: true });
    }
    const record = join(root, 'stub-calls.log');
    for (const name of [...STUBBED, ...STUBBED_TOO]) {
      write(join(stubs, name), `#!${BASH}\necho "${name} $*" >> '${record}'\n`, 0o755);
    }
    env = {
      PATH: `${stubs}:${process.env.PATH}`,
      HOME: home,
      LANG: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    };
    write(join(repo, 'README.md'), '# demo\nsecond line\n');
    write(join(repo, 'src', 'a.ts'), 'export const a = 1;\n');
    write(join(repo, 'canary.txt'), 'untouched\n');
    // File names a glob hands to a command as options.
    write(join(repo, '-opwned'), '');
    write(join(repo, '--pre=touch'), '');
    write(join(repo, 'setup.sh'), 'touch pwned\n', 0o755);
    // Look-alikes of readers, as a cloned repository can ship them.
    for (const fake of ['cat', 'ls', 'bin/ls', 'node_modules/.bin/ls']) {
      mkdirSync(join(repo, fake, '..'), { recursive: true });
      write(join(repo, fake), `#!${BASH}\n/usr/bin/touch pwned-by-look-alike\n`, 0o755);
    }
    // Canaries for a line that changes PATH, HOME or BASH_CMDS before its next command.
    const outside = join(root, 'outside');
    mkdirSync(join(root, 'evil-bin'), { recursive: true });
    mkdirSync(outside);
    write(join(outside, 'canary.txt'), 'untouched\n');
    for (const fake of ['ls', 'cat', 'git']) {
      write(join(root, 'evil-bin', fake), `#!${BASH}\n/usr/bin/touch '${outside}/evil-bin-ran'\n`, 0o755);
    }
    write(join(repo, '.gitconfig'), `[core]\n\tfsmonitor = /usr/bin/touch '${outside}/fsmonitor-ran'\n`);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, env, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'init');
    // Let git settle its index now, so a later `git status` has nothing to refresh.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    git('update-index', '--refresh');
    git('status');
    for (const text of CORPUS) lines.set(text, await parseCommandLine(text));
    const listed = spawnSync(BASH, ['-c', 'compgen -b; compgen -k'], { encoding: 'utf8' }).stdout;
    shellNames = new Set(listed.split('\n').filter(Boolean));
  });

  it(`has a corpus of at least 300 lines (${CORPUS.length})`, () => {
    assert.ok(CORPUS.length >= 300, `${CORPUS.length} lines`);
  });

  it('calls every read-only line safe, and not one of the hostile lines', () => {
    const notSafe = READ_ONLY.filter((text) => !isKnownSafe(lines.get(text)!));
    assert.deepEqual(notSafe, [], 'read-only lines that would ask');
    const passed = HOSTILE.filter((text) => isKnownSafe(lines.get(text)!));
    assert.deepEqual(passed, [], 'hostile lines judged safe');
  });

  it('never calls a bash builtin or keyword safe, but the audited few, each on a read-only line', () => {
    assert.ok(shellNames.size > 60, `bash listed ${shellNames.size} builtins and keywords`);
    // A builtin on the list must be among the audited ones, not an external reader's entry.
    const builtins = shellNames;
    const unaudited = KNOWN_SAFE_NAMES.filter(
      (name) => builtins.has(name) && !Object.hasOwn(SAFE_BUILTINS, name),
    );
    assert.deepEqual(unaudited, []);
    const uncovered = Object.keys(SAFE_BUILTINS).filter(
      (name) => !READ_ONLY.some((text) => lines.get(text)!.commands.some((c) => c.words[0] === name)),
    );
    assert.deepEqual(uncovered, [], 'audited builtins without a read-only line');
  });

  it('never calls a line safe that starts with a builtin or keyword outside the audited few', async () => {
    const names = [...shellNames].filter((name) => !Object.hasOwn(SAFE_BUILTINS, name));
    const passed: string[] = [];
    for (const name of names) {
      for (const text of [name, `${name} x`, `${name} -p x; ls`]) {
        if (isKnownSafe(await parseCommandLine(text))) passed.push(text);
      }
    }
    assert.deepEqual(passed, []);
  });

  it('runs every line it calls safe in bash without a change to any file or a call to a stub', () => {
    const safe = CORPUS.filter((text) => isKnownSafe(lines.get(text)!));
    assert.ok(safe.length >= 100, `only ${safe.length} lines were judged safe: the test would prove little`);
    const harmful: string[] = [];
    let before = snapshot(root);
    for (const text of safe) {
      const run = spawnSync(BASH, ['-c', text], { cwd: repo, env, input: '', timeout: 10_000 });
      if (run.error) harmful.push(`${JSON.stringify(text)}: ${run.error.message}`);
      const after = snapshot(root);
      const changed = differences(before, after);
      if (changed.length > 0) harmful.push(`${JSON.stringify(text)} changed ${changed.join(', ')}`);
      before = after;
    }
    assert.deepEqual(harmful, []);
  });

  it('reads exactly the argv lists bash runs, for every line it calls plain', () => {
    const recorders = join(root, 'recorders');
    const record = join(root, 'argv.log');
    const plain = CORPUS.filter((text) => {
      const line = lines.get(text)!;
      // Unwrapped `bash -c` lines need a real bash on the PATH; `||` skips what follows a success.
      // Other builtins run nothing a recorder sees, and may change what the next command is.
      const skip = (c: CommandLine['commands'][number]) =>
        c.joiner === '||' ||
        c.words[0]!.includes('/') ||
        RUNNERS.has(c.words[0]!) ||
        (shellNames.has(c.words[0]!) && !BUILTINS.has(c.words[0]!)) ||
        c.globs.length > 0;
      return line.plain && !line.commands.some(skip);
    }).filter((text) => !/\bbash\b/.test(text));
    assert.ok(plain.length >= 100, `only ${plain.length} plain lines`);
    const mismatches: string[] = [];
    for (const text of plain) {
      const line = lines.get(text)!;
      rmSync(recorders, { recursive: true, force: true });
      rmSync(record, { force: true });
      mkdirSync(recorders);
      const names = new Set(line.commands.map((c) => c.words[0]!).filter((name) => !BUILTINS.has(name)));
      for (const name of names) {
        // One printf, one write: pipeline stages append whole records.
        write(
          join(recorders, name),
          `#!${BASH}\nprintf '%s\\0' "\${0##*/}" "$@" $'\\x01' >> '${record}'\n`,
          0o755,
        );
      }
      spawnSync(BASH, ['-c', text], {
        cwd: repo,
        env: { ...env, PATH: recorders },
        input: '',
        timeout: 10_000,
      });
      const recorded = (() => {
        try {
          return readFileSync(record, 'utf8');
        } catch {
          return '';
        }
      })()
        .split('\x01\0')
        .filter(Boolean)
        .map((entry) => JSON.stringify(entry.split('\0').slice(0, -1)))
        .sort();
      const expected = line.commands
        .filter((c) => !BUILTINS.has(c.words[0]!))
        .map((c) => JSON.stringify(c.words))
        .sort();
      if (JSON.stringify(recorded) !== JSON.stringify(expected)) {
        mismatches.push(
          `${JSON.stringify(text)}: bash ran ${recorded.join(' ')}, the gate read ${expected.join(' ')}`,
        );
      }
    }
    assert.deepEqual(mismatches, []);
  });

  it('has canaries that catch every builtin attack when bash runs it', () => {
    const missed: string[] = [];
    let before = snapshot(root);
    for (const text of BUILTIN_ATTACKS) {
      spawnSync(BASH, ['-c', text], { cwd: repo, env, input: '', timeout: 10_000 });
      const after = snapshot(root);
      if (differences(before, after).length === 0) missed.push(text);
      before = after;
    }
    assert.deepEqual(missed, [], 'attacks the canaries did not see');
  });
});
