// Protected names that do not exist yet, on a real temp tree: the placeholders a bubblewrap command
// gets (bound read-only, kept while any command holds them, removed after the last), and what the
// walk after a command moves aside (new names, and names that are no longer the same entry).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { quarantineNew, snapshotNames } from '../../../../server/sandbox/newProtectedNames';
import { sweepLeftovers } from '../../../../server/sandbox/placeholderLedger';
import { isPlaceholder } from '../../../../server/sandbox/placeholders';
import { releaseSandbox, wrapCommand } from '../../../../server/sandbox/sandbox';
import { tempDir } from '../../../support/serverProcess';

const bwrap = { kind: 'bubblewrap' as const, program: '/usr/bin/bwrap' };
const policy = {
  type: 'workspaceWrite' as const,
  writableRoots: [],
  networkAccess: false,
  excludeTmpdirEnvVar: true,
  excludeSlashTmp: true,
};

/** The paths bubblewrap binds read-only. */
const readOnlyBinds = (argv: string[]) =>
  argv.flatMap((arg, i) => (arg === '--ro-bind' && argv[i + 1] !== '/' ? [argv[i + 1]!] : []));

describe('protected names that do not exist', () => {
  let root: string;
  // The ledger of held placeholders goes to Threadline's home: one of the test's own.
  const savedHome = process.env.THREADLINE_HOME;
  before(() => (process.env.THREADLINE_HOME = tempDir('threadline-names-home-')));
  after(() => {
    if (savedHome === undefined) delete process.env.THREADLINE_HOME;
    else process.env.THREADLINE_HOME = savedHome;
  });
  beforeEach(() => {
    root = realpathSync(tempDir('threadline-names-'));
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, '.vscode'));
  });

  it('get read-only placeholders at the root and the cwd while a command holds them', async () => {
    const first = await wrapCommand(['ls'], policy, root, {}, bwrap, join(root, 'src'));
    const expected = ['.git', '.threadline', '.codex'].flatMap((name) => [
      join(root, name),
      join(root, 'src', name),
    ]);
    const binds = readOnlyBinds(first.argv);
    for (const path of [...expected, join(root, 'src', '.vscode'), join(root, '.vscode')])
      assert.ok(binds.includes(path), path);
    assert.deepEqual(readdirSync(root).sort(), ['.codex', '.git', '.threadline', '.vscode', 'src']);
    // A second command in the same root holds the same placeholders: the first one's end must not
    // remove them, which would unmount them in the second's sandbox.
    const second = await wrapCommand(['ls'], policy, root, {}, bwrap);
    assert.ok(readOnlyBinds(second.argv).includes(join(root, 'src', '.git')));
    assert.deepEqual(await releaseSandbox(first), { quarantined: [], complete: true });
    assert.deepEqual(readdirSync(join(root, 'src')).sort(), ['.codex', '.git', '.threadline', '.vscode']);
    await releaseSandbox(second);
    assert.deepEqual(readdirSync(root).sort(), ['.vscode', 'src'], 'the existing .vscode stays');
    assert.deepEqual(readdirSync(join(root, 'src')), []);
  });

  it('are written down while held, and those of a server that died are removed', async () => {
    const ledger = join(process.env.THREADLINE_HOME!, 'sandbox-placeholders');
    const wrapped = await wrapCommand(['ls'], policy, root, {}, bwrap);
    const [own] = readdirSync(ledger);
    assert.equal(own, `${process.pid}@${hostname()}.json`);
    assert.deepEqual(JSON.parse(readFileSync(join(ledger, own), 'utf8')).sort(), [
      join(root, '.codex'),
      join(root, '.git'),
      join(root, '.threadline'),
    ]);
    await releaseSandbox(wrapped);
    assert.deepEqual(readdirSync(ledger), []);
    // A dead server's (pid 2^22 + 1 is above Linux's pid_max) left an empty placeholder, one a host
    // program has written into since, and one that is this server's own now.
    const dead = join(ledger, `${2 ** 22 + 1}@${hostname()}.json`);
    for (const name of ['.git', '.codex']) mkdirSync(join(root, name));
    writeFileSync(join(root, '.codex', 'config.toml'), '');
    const live = await wrapCommand(['ls'], policy, join(root, 'src'), {}, bwrap);
    writeFileSync(dead, JSON.stringify(['.git', '.codex', 'src/.git'].map((name) => join(root, name))));
    sweepLeftovers(isPlaceholder);
    assert.deepEqual(readdirSync(root).sort(), ['.codex', '.vscode', 'src']);
    assert.ok(readdirSync(join(root, 'src')).includes('.git'), 'held here: not removed');
    assert.equal(readdirSync(ledger).includes(basename(dead)), false);
    await releaseSandbox(live);
  });

  it('one made while another command runs, which has no mount over it, counts only while as made', async () => {
    const running = await wrapCommand(['ls'], policy, root, {}, bwrap);
    const later = await wrapCommand(['ls'], policy, root, {}, bwrap, join(root, 'src'));
    // What the command already running could do to src/.git, an ordinary folder to it.
    mkdirSync(join(root, 'src', '.git', 'hooks'));
    const nested = join(root, 'src', '.git');
    assert.deepEqual((await releaseSandbox(later)).quarantined, [
      { path: nested, movedTo: `${nested}.threadline-quarantine` },
    ]);
    assert.deepEqual((await releaseSandbox(running)).quarantined, []);
    assert.deepEqual(readdirSync(join(root, 'src')), ['.git.threadline-quarantine']);
    assert.deepEqual(readdirSync(root).sort(), ['.vscode', 'src']);
  });

  it('a placeholder no running command could reach keeps what a host program put in it', async () => {
    const wrapped = await wrapCommand(['ls'], policy, root, {}, bwrap);
    writeFileSync(join(root, '.threadline', 'config.toml'), 'model = "x"\n');
    await releaseSandbox(wrapped);
    assert.deepEqual(readdirSync(join(root, '.threadline')), ['config.toml']);
  });

  it('the walk after a command moves aside what is new or no longer the same, and nothing else', async () => {
    execFileSync('git', ['init', '-q', join(root, 'kept')]);
    mkdirSync(join(root, 'swapped', '.git'), { recursive: true });
    symlinkSync('../elsewhere', join(root, 'src', '.git'));
    execFileSync('git', ['init', '-q', '--bare', join(root, 'old.git')]);
    const before = await snapshotNames([root]);
    execFileSync('git', ['init', '-q', '--bare', join(root, 'new')]);
    // git only asks that objects and refs can be entered: files and links pass as well.
    mkdirSync(join(root, 'odd'));
    for (const name of ['HEAD', 'objects']) writeFileSync(join(root, 'odd', name), '', { mode: 0o755 });
    symlinkSync('/', join(root, 'odd', 'refs'));
    execFileSync('git', ['init', '-q', join(root, 'a/b/c/d/e/f/g/h/i/j')]);
    mkdirSync(join(root, 'elsewhere'));
    renameSync(join(root, 'swapped', '.git'), join(root, 'swapped', 'old'));
    mkdirSync(join(root, 'swapped', '.git'));
    mkdirSync(join(root, 'case', '.GIT'), { recursive: true });
    mkdirSync(join(root, 'busy', '.git.threadline-quarantine'), { recursive: true });
    mkdirSync(join(root, 'busy', '.git'));
    const moved = await quarantineNew(before, await snapshotNames([root]));
    const q = (path: string, n = '') => ({
      path: join(root, path),
      movedTo: join(root, `${path}.threadline-quarantine${n}`),
    });
    assert.deepEqual(
      moved.sort((a, b) => a.path.localeCompare(b.path)),
      [
        q('a/b/c/d/e/f/g/h/i/j/.git'),
        q('busy/.git', '-2'),
        q('new/HEAD'),
        q('odd/HEAD'),
        q('case/.GIT'),
        q('src/.git'),
        q('swapped/.git'),
      ].sort((a, b) => a.path.localeCompare(b.path)),
    );
    assert.ok(readdirSync(join(root, 'kept', '.git')).includes('HEAD'));
    assert.ok(readdirSync(join(root, 'old.git')).includes('HEAD'), 'a bare repository that was there stays');
  });

  it('moves nothing through a folder swapped for a link after the walk', async () => {
    const outside = realpathSync(tempDir('threadline-names-outside-'));
    mkdirSync(join(outside, '.git'));
    symlinkSync(outside, join(root, 'swapped'));
    const after = { entries: new Map([[join(root, 'swapped', '.git'), 'dir']]), complete: true };
    const moved = await quarantineNew({ entries: new Map(), complete: true }, after);
    assert.deepEqual(moved, [{ path: join(root, 'swapped', '.git'), movedTo: null }]);
    assert.deepEqual(readdirSync(outside), ['.git']);
  });

  it('says when the tree is larger than the walk looks at', async () => {
    for (let i = 0; i < 5; i++) mkdirSync(join(root, `d${i}`));
    assert.equal((await snapshotNames([root], 3)).complete, false);
    assert.equal((await snapshotNames([root], 10)).complete, true);
  });
});
