// review/start through the real server, in temp git repositories: inline and detached delivery,
// each target's diff in the reviewer's request, the review-mode items around the model's answer.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ThreadItem } from '../../server/protocol/items';
import type { Turn } from '../../server/protocol/thread';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, completedItems, startThread, turnCompleted } from '../support/agent';
import { tempDir, useServers, type ServerProcess } from '../support/serverProcess';
import { unlessWine } from '../support/underWine';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

function repoWithCommit(): string {
  const dir = tempDir('threadline-review-');
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'app.js'), 'function add(a, b) {\n  return a + b;\n}\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'First');
  return dir;
}

const REVIEW_TEXT = 'The change breaks addition.\n- Subtracts instead of adding — app.js:2-2\n  Use +.';

describe('review/start', function () {
  before(function () {
    unlessWine(this, 'no Git for Windows in the Wine prefix');
  });
  const model = useModelServer();
  const start = useServers();
  const serve = () => start(agentHome('responses', model.baseUrl), 'threadline_vscode', agentEnv);

  async function review(server: ServerProcess, params: Record<string, unknown>) {
    return server.call<{ turn: Turn; reviewThreadId: string }>('review/start', params);
  }

  it('reviews uncommitted changes inline: the diff to the reviewer, review-mode items around its answer', async () => {
    const repo = repoWithCommit();
    writeFileSync(join(repo, 'app.js'), 'function add(a, b) {\n  return a - b;\n}\n');
    writeFileSync(join(repo, 'notes.md'), 'untracked note\n');
    model.script({ output: [{ text: REVIEW_TEXT }] });
    const server = await serve();
    const threadId = await startThread(server, repo);
    const { turn, reviewThreadId } = await review(server, {
      threadId,
      target: { type: 'uncommittedChanges' },
    });
    assert.equal(reviewThreadId, threadId);
    assert.equal(turn.status, 'inProgress');
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');

    const items = completedItems(server, turn.id);
    assert.deepEqual(
      items.map((i: ThreadItem) => i.type),
      ['userMessage', 'enteredReviewMode', 'agentMessage', 'exitedReviewMode'],
    );
    assert.equal((items[1] as { review: string }).review, 'current changes');
    assert.equal((items[2] as { text: string }).text, REVIEW_TEXT);
    assert.equal((items[3] as { review: string }).review, REVIEW_TEXT);

    const body = model.requests[0]!.body as { instructions: string; tools?: unknown[]; input: unknown };
    assert.match(body.instructions, /reviewing a code change/);
    assert.equal(body.tools?.length ?? 0, 0, 'the reviewer gets no tools');
    const input = JSON.stringify(body.input);
    assert.match(input, /- {2}return a \+ b;\\n\+ {2}return a - b;/);
    assert.match(input, /\+untracked note/);
    assert.equal(server.notifications('thread/started').length, 1, 'inline: no new thread');
    server.assertSchemaClean();
  });

  it('reviews a commit detached: a forked thread announced first, the commit in the request', async () => {
    const repo = repoWithCommit();
    writeFileSync(join(repo, 'app.js'), 'function add(a, b) {\n  return b + a;\n}\n');
    git(repo, 'commit', '-q', '-am', 'Swap operands');
    const sha = git(repo, 'rev-parse', 'HEAD');
    model.script({ output: [{ text: 'Fine.' }] });
    const server = await serve();
    const threadId = await startThread(server, repo);
    const { turn, reviewThreadId } = await review(server, {
      threadId,
      delivery: 'detached',
      target: { type: 'commit', sha, title: 'Swap operands' },
    });
    assert.notEqual(reviewThreadId, threadId);
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    const started = server.received.findIndex(
      (m) =>
        m.method === 'thread/started' &&
        (m.params as { thread: { id: string } }).thread.id === reviewThreadId,
    );
    const turnStarted = server.received.findIndex(
      (m) => m.method === 'turn/started' && (m.params as { turn: Turn }).turn.id === turn.id,
    );
    assert.ok(started >= 0 && started < turnStarted, 'thread/started comes before the review turn');
    const entered = completedItems(server, turn.id).find((i) => i.type === 'enteredReviewMode');
    assert.equal((entered as { review: string }).review, `commit ${sha.slice(0, 7)}: Swap operands`);
    const input = JSON.stringify(model.requests[0]!.body.input);
    assert.match(input, /Swap operands/);
    assert.match(input, /\+ {2}return b \+ a;/);
    const { thread } = await server.call<{ thread: { turns: Turn[] } }>('thread/read', {
      threadId,
      includeTurns: true,
    });
    assert.equal(thread.turns.length, 0, 'the parent thread has no review turn');
  });

  it('reviews against a base branch, and custom instructions as given', async () => {
    const repo = repoWithCommit();
    git(repo, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(repo, 'feature.js'), 'export const flag = true;\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'Feature');
    model.script({ output: [{ text: 'Ok.' }] }, { output: [{ text: 'Checked.' }] });
    const server = await serve();
    const threadId = await startThread(server, repo);
    const first = await review(server, { threadId, target: { type: 'baseBranch', branch: 'main' } });
    await turnCompleted(server, first.turn.id);
    assert.match(JSON.stringify(model.requests[0]!.body.input), /\+export const flag = true;/);
    const second = await review(server, {
      threadId,
      target: { type: 'custom', instructions: 'Check the flag.' },
    });
    await turnCompleted(server, second.turn.id);
    assert.match(JSON.stringify(model.requests[1]!.body.input), /Check the flag\./);
  });

  it('refuses targets it cannot read', async () => {
    const server = await serve();
    const threadId = await startThread(server, tempDir('threadline-norepo-'));
    const notRepo = await server.request('review/start', {
      threadId,
      target: { type: 'uncommittedChanges' },
    });
    assert.equal(notRepo.error?.code, -32602);
    assert.match(notRepo.error!.message, /not inside a git repository/);
    const repoThread = await startThread(server, repoWithCommit());
    const branch = await server.request('review/start', {
      threadId: repoThread,
      target: { type: 'baseBranch', branch: 'no-such-branch' },
    });
    assert.equal(branch.error?.code, -32602);
    const bad = await server.request('review/start', { threadId, target: { type: 'nonsense' } });
    assert.equal(bad.error?.code, -32602);
    assert.equal(model.requests.length, 0);
  });
});
