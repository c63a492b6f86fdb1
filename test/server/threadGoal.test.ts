// A thread's goal and metadata through the built server: thread/goal/set|get|clear and
// thread/metadata/update answer what the reference schema (Codex 0.169) defines, refuse bad params
// with -32602 and unknown threads with a clear error, survive a restart (they are rollout records),
// and the goal reaches the scripted model as a context update appended before the next message,
// every request still starting with the whole previous one (the prompt cache's prefix).
import { strict as assert } from 'node:assert';
import { useModelServer } from '../fixtures/modelServer/server';
import type { RecordedRequest } from '../fixtures/modelServer/scenario';
import { agentEnv, agentHome, contextMessagesOf, runTurn, startThread } from '../support/agent';
import { validateServerMessage } from '../support/codexSchema';
import { assertEachExtendsPrevious, checkedCall, errorOf, inputOf } from '../support/referenceCalls';
import { tempDir, useServers } from '../support/serverProcess';
import { until } from '../support/until';

interface Goal {
  threadId: string;
  objective: string;
  status: string;
  tokenBudget: number | null;
  tokensUsed: number;
  timeUsedSeconds: number;
  createdAt: number;
  updatedAt: number;
}

const checked = checkedCall;

describe('thread goal and metadata', () => {
  const model = useModelServer();
  const start = useServers();

  it('checks results against the reference schema for real (a wrong goal is caught)', () => {
    const wrong = { id: 1, result: { goal: { threadId: 't', objective: 'x', status: 'done' } } };
    assert.notDeepEqual(validateServerMessage(wrong, 'thread/goal/set'), []);
    assert.notDeepEqual(validateServerMessage({ id: 2, result: {} }, 'thread/metadata/update'), []);
    assert.notDeepEqual(validateServerMessage({ id: 3, result: {} }, 'thread/goal/clear'), []);
  });

  it('sets, patches, reads and clears a goal, announcing each change, and keeps it across a restart', async () => {
    const home = tempDir('threadline-home-');
    const first = await start(home);
    const threadId = await startThread(first, tempDir('threadline-cwd-'));

    assert.deepEqual(await checked(first, 'thread/goal/get', { threadId }), { goal: null });
    const { goal } = await checked<{ goal: Goal }>(first, 'thread/goal/set', {
      threadId,
      objective: '  Make the parser stream  ',
      tokenBudget: 50000,
      origin: 'user',
    });
    assert.equal(goal.threadId, threadId);
    assert.equal(goal.objective, 'Make the parser stream');
    assert.equal(goal.status, 'active', 'a new goal is active');
    assert.equal(goal.tokenBudget, 50000);
    assert.equal(goal.tokensUsed, 0);
    assert.ok(Math.abs(goal.createdAt - Date.now() / 1000) < 60, 'createdAt is in seconds');
    const updated = await first.notification('thread/goal/updated');
    assert.deepEqual(updated.params, { threadId, turnId: null, goal });

    // A patch without an objective keeps it and the creation time; null clears the budget.
    const paused = await checked<{ goal: Goal }>(first, 'thread/goal/set', {
      threadId,
      status: 'paused',
      tokenBudget: null,
    });
    assert.equal(paused.goal.objective, 'Make the parser stream');
    assert.equal(paused.goal.status, 'paused');
    assert.equal(paused.goal.tokenBudget, null);
    assert.equal(paused.goal.createdAt, goal.createdAt);
    await until(() => first.notifications('thread/goal/updated').length === 2);
    await first.stop();

    const second = await start(home);
    assert.deepEqual(await checked(second, 'thread/goal/get', { threadId }), paused);
    assert.deepEqual(await checked(second, 'thread/goal/clear', { threadId }), { cleared: true });
    await second.notification('thread/goal/cleared', (p) => p.threadId === threadId);
    assert.deepEqual(await checked(second, 'thread/goal/clear', { threadId }), { cleared: false });
    assert.deepEqual(await checked(second, 'thread/goal/get', { threadId }), { goal: null });
    await second.stop();

    const third = await start(home);
    assert.deepEqual(
      await checked(third, 'thread/goal/get', { threadId }),
      { goal: null },
      'the clear lasts',
    );
  });

  it('patches the stored git metadata, shown on the thread and kept across a restart', async () => {
    const home = tempDir('threadline-home-');
    const first = await start(home);
    const threadId = await startThread(first, tempDir('threadline-cwd-'));
    const { thread } = await checked<{ thread: { id: string; gitInfo: unknown } }>(
      first,
      'thread/metadata/update',
      {
        threadId,
        gitInfo: { branch: 'feature/goal', sha: 'abc123', originUrl: 'https://example.test/r.git' },
      },
    );
    assert.equal(thread.id, threadId);
    assert.deepEqual(thread.gitInfo, {
      sha: 'abc123',
      branch: 'feature/goal',
      originUrl: 'https://example.test/r.git',
    });
    // Omitted keeps, null clears.
    const patched = await checked<{ thread: { gitInfo: unknown } }>(first, 'thread/metadata/update', {
      threadId,
      gitInfo: { sha: null, branch: 'main' },
    });
    const expected = { sha: null, branch: 'main', originUrl: 'https://example.test/r.git' };
    assert.deepEqual(patched.thread.gitInfo, expected);
    await first.stop();

    const second = await start(home);
    const read = await second.call<{ thread: { gitInfo: unknown } }>('thread/read', { threadId });
    assert.deepEqual(read.thread.gitInfo, expected, 'thread/read after a restart');
    const listed = await second.call<{ data: { id: string; gitInfo: unknown }[] }>('thread/list', {});
    assert.deepEqual(listed.data.find((t) => t.id === threadId)?.gitInfo, expected, 'the index has it too');
  });

  it('answers -32602 to bad params and a clear error for an unknown thread', async () => {
    const server = await start(tempDir('threadline-home-'));
    const threadId = await startThread(server, tempDir('threadline-cwd-'));
    const bad: [string, unknown][] = [
      ['thread/goal/set', { objective: 'no thread id' }],
      ['thread/goal/set', { threadId, objective: 42 }],
      ['thread/goal/set', { threadId, objective: 'x', status: 'finished' }],
      ['thread/goal/set', { threadId, objective: 'x', tokenBudget: 1.5 }],
      ['thread/goal/set', { threadId, objective: 'x', origin: 'someone' }],
      ['thread/goal/set', { threadId, objective: '   ' }],
      ['thread/goal/set', { threadId, status: 'active' }], // no goal yet, and no objective
      ['thread/goal/get', {}],
      ['thread/goal/clear', { threadId: 7 }],
      ['thread/metadata/update', { threadId, gitInfo: { branch: '' } }],
      ['thread/metadata/update', { threadId, gitInfo: { sha: 1 } }],
      ['thread/metadata/update', { gitInfo: {} }],
    ];
    for (const [method, params] of bad) {
      const error = await errorOf(server, method, params);
      assert.equal(error.code, -32602, `${method} ${JSON.stringify(params)}: ${error.message}`);
    }
    assert.match((await errorOf(server, 'thread/goal/set', { threadId })).message, /has no goal yet/);
    const unknown = '00000000-0000-7000-8000-000000000000';
    for (const method of ['thread/goal/get', 'thread/goal/clear', 'thread/metadata/update']) {
      const error = await errorOf(server, method, { threadId: unknown });
      assert.match(error.message, new RegExp(`thread not found: ${unknown}`), method);
    }
    const error = await errorOf(server, 'thread/goal/set', { threadId: unknown, objective: 'x' });
    assert.match(error.message, /thread not found/);
    // Nothing was stored by the refusals.
    assert.deepEqual(await server.call('thread/goal/get', { threadId }), { goal: null });
  });

  it('gives the model the goal as an appended context update, each request extending the previous one, also after a restart', async () => {
    const home = agentHome('responses', model.baseUrl);
    const cwd = tempDir('threadline-cwd-');
    const first = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await startThread(first, cwd);
    model.script(
      { output: [{ text: 'One.' }], usage: { input: 100, output: 20 } },
      { output: [{ text: 'Two.' }], usage: { input: 300, output: 50 } },
      { output: [{ text: 'Three.' }] },
      { output: [{ text: 'Four.' }] },
    );
    assert.equal((await runTurn(first, threadId, 'one')).status, 'completed');
    await first.call('thread/goal/set', {
      threadId,
      objective: 'Port the CLI to Windows',
      tokenBudget: 9000,
    });
    assert.equal((await runTurn(first, threadId, 'two')).status, 'completed');
    // What the turns spent since the goal was set, not before.
    const spent = await first.call<{ goal: { tokensUsed: number } }>('thread/goal/get', { threadId });
    assert.equal(spent.goal.tokensUsed, 350);
    const done = await first.call<{ goal: { tokensUsed: number } }>('thread/goal/set', {
      threadId,
      status: 'complete',
    });
    assert.equal(done.goal.tokensUsed, 350, 'a patch keeps the count');
    await first.stop();

    const second = await start(home, 'threadline_vscode', agentEnv);
    await second.call('thread/resume', { threadId });
    assert.equal((await runTurn(second, threadId, 'three')).status, 'completed');
    await second.call('thread/goal/clear', { threadId });
    assert.equal((await runTurn(second, threadId, 'four')).status, 'completed');

    const requests = model.requests;
    assert.equal(requests.length, 4);
    assertEachExtendsPrevious(requests);
    const instructions = (r: RecordedRequest) => JSON.stringify(r.body.instructions);
    for (const request of requests) {
      assert.equal(instructions(request), instructions(requests[0]!), 'the system prompt never changes');
      assert.doesNotMatch(instructions(request), /Port the CLI/);
    }
    assert.doesNotMatch(JSON.stringify(inputOf(requests[0]!)), /Thread goal/);
    const told = contextMessagesOf(requests[3]!);
    assert.equal(told.length, 4, 'the whole context, then one update per goal change');
    assert.equal(
      told[1],
      [
        '<threadline_context_update>',
        '# Thread goal',
        'Objective (set by the user): Port the CLI to Windows',
        'Status: active (work toward it)',
        'Token budget: 9000',
        '</threadline_context_update>',
      ].join('\n'),
    );
    assert.match(told[2]!, /^<threadline_context_update>\n# Thread goal\n[^]*Status: complete \(done/);
    assert.match(told[3]!, /# Thread goal\nNo longer in force: disregard the Thread goal given earlier\./);
    // Each update sits right before the user message of its turn, after everything sent earlier.
    const lastInput = inputOf(requests[1]!);
    assert.match(JSON.stringify(lastInput.at(-2)), /# Thread goal/);
    assert.match(JSON.stringify(lastInput.at(-1)), /two/);
  });
});
