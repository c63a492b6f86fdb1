// review/start on a repository that names programs everywhere git would run one: core.fsmonitor,
// hooks and core.hooksPath, diff.external, a textconv and an external diff driver, clean/smudge and
// long-running process filters, gpg.program behind log.showSignature, some of them in files that
// include.path and includeIf pull in. Each program appends its name to a canary file outside the
// repository. Plain git on the same repository runs them (the fixture is live); the server's review of
// each target runs none, and its diff still reaches the model.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Turn } from '../../server/protocol/thread';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startThread, turnCompleted } from '../support/agent';
import { tempDir, useServers } from '../support/serverProcess';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

interface Hostile {
  repo: string;
  canary: string;
  /** The commit on `feature` whose object carries a (fake) signature. */
  signed: string;
}

function hostileRepository(): Hostile {
  const repo = tempDir('threadline-hostile-');
  const outside = tempDir('threadline-hostile-tools-');
  const canary = join(outside, 'ran');
  const program = (name: string) => {
    const path = join(outside, name);
    // Filters read stdin and give it back; textconv gets a file; anything else just leaves its name.
    const body = `echo ${name} >> '${canary}'\nif [ $# -eq 0 ]; then exec cat; else exec cat "$1" 2>/dev/null; fi\n`;
    writeFileSync(path, `#!/bin/sh\n${body}`);
    chmodSync(path, 0o755);
    return path;
  };

  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(
    join(repo, '.gitattributes'),
    '*.js diff=evil filter=evil\n*.txt diff=evil2\n*.dat filter=proc\n*.md filter=inc\n',
  );
  writeFileSync(join(repo, 'app.js'), 'function add(a, b) {\n  return a + b;\n}\n');
  writeFileSync(join(repo, 'readme.txt'), 'hello\n');
  writeFileSync(join(repo, 'table.dat'), 'one\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'First');
  git(repo, 'checkout', '-q', '-b', 'feature');
  writeFileSync(join(repo, 'app.js'), 'function add(a, b) {\n  return a * b;\n}\n');
  git(repo, 'commit', '-q', '-am', 'Multiply');
  // The same commit again with a gpgsig header: showing it with log.showSignature runs gpg.program.
  const object = git(repo, 'cat-file', 'commit', 'HEAD').replace(
    /^(committer .*)$/m,
    '$1\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----',
  );
  const signed = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
    cwd: repo,
    input: `${object}\n`,
    encoding: 'utf8',
  }).trim();
  git(repo, 'update-ref', 'refs/heads/feature', signed);

  // Uncommitted work in every file a driver applies to, and an untracked one.
  writeFileSync(join(repo, 'app.js'), 'function add(a, b) {\n  return a / b;\n}\n');
  writeFileSync(join(repo, 'readme.txt'), 'hello, world\n');
  writeFileSync(join(repo, 'table.dat'), 'one\ntwo\n');
  writeFileSync(join(repo, 'notes.md'), 'untracked note\n');

  const gitDir = join(repo, '.git');
  mkdirSync(join(gitDir, 'info'), { recursive: true });
  writeFileSync(join(gitDir, 'info', 'attributes'), '*.md diff=evil\n');
  writeFileSync(join(gitDir, 'hooks', 'post-index-change'), readFileSync(program('post-index-change')));
  chmodSync(join(gitDir, 'hooks', 'post-index-change'), 0o755);
  const hooks = join(outside, 'hooks');
  mkdirSync(hooks);
  writeFileSync(join(hooks, 'post-index-change'), readFileSync(program('hooks-path')));
  chmodSync(join(hooks, 'post-index-change'), 0o755);
  writeFileSync(
    join(gitDir, 'included.config'),
    `[core]\n\tfsmonitor = ${program('fsmonitor')}\n\thooksPath = ${hooks}\n` +
      `[filter "inc"]\n\tclean = ${program('inc-clean')}\n\trequired = true\n`,
  );
  writeFileSync(
    join(gitDir, 'conditional.config'),
    `[diff "evil2"]\n\tcommand = ${program('evil2-command')}\n`,
  );
  const config = readFileSync(join(gitDir, 'config'), 'utf8');
  writeFileSync(
    join(gitDir, 'config'),
    config +
      `[include]\n\tpath = included.config\n` +
      `[includeIf "gitdir:${gitDir}/"]\n\tpath = conditional.config\n` +
      `[diff]\n\texternal = ${program('diff-external')}\n` +
      `[diff "evil"]\n\ttextconv = ${program('textconv')}\n` +
      `[filter "evil"]\n\tclean = ${program('clean')}\n\tsmudge = ${program('smudge')}\n\trequired = true\n` +
      `[filter "proc"]\n\tprocess = ${program('process')}\n` +
      `[log]\n\tshowSignature = true\n[gpg]\n\tprogram = ${program('gpg')}\n` +
      `[core]\n\tpager = ${program('pager')}\n\tsshCommand = ${program('ssh')}\n`,
  );
  return { repo, canary, signed };
}

function ran(canary: string): string[] {
  return existsSync(canary) ? [...new Set(readFileSync(canary, 'utf8').trim().split('\n'))].sort() : [];
}

describe('a hostile repository', function () {
  if (process.platform === 'win32') return;
  const model = useModelServer();
  const start = useServers();

  it('runs its programs under plain git (the fixture is live)', () => {
    const { repo, canary } = hostileRepository();
    const plain = (...args: string[]) =>
      spawnSync('git', args, { cwd: repo, encoding: 'utf8', timeout: 10_000 });
    plain('status');
    plain('diff', 'HEAD');
    plain('diff', '--no-ext-diff', 'HEAD');
    plain('show', 'HEAD');
    plain('diff', '--no-index', '--', '/dev/null', 'notes.md');
    const seen = ran(canary);
    for (const name of ['fsmonitor', 'diff-external', 'textconv', 'clean', 'process', 'inc-clean', 'gpg']) {
      assert.ok(seen.includes(name), `plain git did not run ${name}: ${seen.join(', ')}`);
    }
  });

  it('review/start runs none of them, for every target, and the diff still reaches the model', async () => {
    const { repo, canary, signed } = hostileRepository();
    model.script(
      { output: [{ text: 'One.' }] },
      { output: [{ text: 'Two.' }] },
      { output: [{ text: 'Three.' }] },
    );
    const server = await start(agentHome('responses', model.baseUrl), 'threadline_vscode', agentEnv);
    const threadId = await startThread(server, repo);
    const targets = [
      { type: 'uncommittedChanges' },
      { type: 'baseBranch', branch: 'main' },
      { type: 'commit', sha: signed, title: 'Multiply' },
    ];
    for (const target of targets) {
      const { turn } = await server.call<{ turn: Turn }>('review/start', { threadId, target });
      assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    }
    assert.deepEqual(ran(canary), [], 'the review ran a program the repository named');

    const [uncommitted, base, commit] = model.requests.map((r) => JSON.stringify(r.body.input));
    assert.match(uncommitted!, /- {2}return a \* b;\\n\+ {2}return a \/ b;/);
    assert.match(uncommitted!, /\+hello, world/);
    assert.match(uncommitted!, /\+two/);
    assert.match(uncommitted!, /\+untracked note/);
    assert.match(base!, /- {2}return a \+ b;\\n\+ {2}return a \/ b;/);
    assert.match(commit!, /Multiply/);
    assert.match(commit!, /- {2}return a \+ b;\\n\+ {2}return a \* b;/);
    rmSync(canary, { force: true });
  });
});
