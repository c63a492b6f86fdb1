// account/usage/read through the built server: real turns against the scripted model server leave
// token counts in their rollouts, and the answer sums them per day, thread and model, matching the
// reference schema (Codex 0.169); Threadline's breakdown prices them from config.toml; bad params
// get -32602, an unknown thread a clear error, a corrupt rollout is skipped, and the usage cache
// survives a restart (and a broken cache is rebuilt).
import { strict as assert } from 'node:assert';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AccountUsageReadResponse } from '../../server/protocol/usageMethods';
import { useModelServer } from '../fixtures/modelServer/server';
import type { Turn } from '../../server/protocol/thread';
import { agentEnv, agentHome, runTurn, startThread, turnCompleted } from '../support/agent';
import { validateServerMessage } from '../support/codexSchema';
import { checkedCall, errorOf } from '../support/referenceCalls';
import { useServers } from '../support/serverProcess';

const localDay = (ms: number) => {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

describe('account/usage/read', () => {
  const model = useModelServer();
  const start = useServers();
  const serve = (home: string) => start(home, 'threadline_vscode', agentEnv, { experimentalApi: true });
  const read = (server: Parameters<typeof checkedCall>[0], params: unknown) =>
    checkedCall<AccountUsageReadResponse>(server, 'account/usage/read', params);

  it('checks results against the reference schema for real (a wrong answer is caught)', () => {
    assert.notDeepEqual(validateServerMessage({ id: 1, result: {} }, 'account/usage/read'), []);
    const wrongBucket = { summary: {}, dailyUsageBuckets: [{ startDate: '2026-11-27' }] };
    assert.notDeepEqual(validateServerMessage({ id: 2, result: wrongBucket }, 'account/usage/read'), []);
  });

  it('sums real turns per day, thread and model, prices them, skips a corrupt rollout and survives a restart', async () => {
    const home = agentHome('responses', model.baseUrl);
    appendFileSync(
      join(home, 'config.toml'),
      '\n[usage.prices."test-model"]\ninput = 2.0\ncached_input = 0.5\noutput = 10.0\n',
    );
    const first = await serve(home);
    const empty = await read(first, {});
    assert.deepEqual(empty.dailyUsageBuckets, []);
    assert.equal(empty.summary.lifetimeTokens, 0);
    assert.equal(empty.threadUsage, null);

    // Thread A: two turns; thread B: one. Responses: total = input + output.
    model.script({ output: [{ text: 'one' }], usage: { input: 1000, output: 200, cached: 400 } });
    const a = await startThread(first);
    assert.equal((await runTurn(first, a, 'First')).status, 'completed');
    model.script({
      output: [{ text: 'two' }],
      usage: { input: 3000, output: 100, cached: 0, reasoning: 40 },
    });
    assert.equal((await runTurn(first, a, 'Second')).status, 'completed');
    model.script({ output: [{ text: 'three' }], usage: { input: 500, output: 50 } });
    const b = await startThread(first);
    assert.equal((await runTurn(first, b, 'Third')).status, 'completed');

    // A fork copies A's turns but not their token counts: the tokens were spent once.
    await checkedCall(first, 'thread/fork', { threadId: a });

    // A rollout whose lines are garbage, and one whose token line is torn, are skipped, not fatal.
    const day = localDay(Date.now());
    const folder = join(home, 'sessions', ...day.split('-'));
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'rollout-2026-01-01T00-00-00-00000000-0000-7000-8000-000000000001.jsonl'),
      '\u0000garbage\n{not json',
    );
    writeFileSync(
      join(folder, 'rollout-2026-01-01T00-00-00-00000000-0000-7000-8000-000000000002.jsonl'),
      '{"type":"token_count","ts":1,"turnId":"t","model":"x","effort":null,"usage":{"inputTokens":5\n',
    );

    const all = await read(first, { breakdown: true });
    const total = 1200 + 3100 + 550;
    assert.deepEqual(all.dailyUsageBuckets, [{ startDate: day, tokens: total }]);
    assert.equal(all.summary.lifetimeTokens, total);
    assert.equal(all.summary.peakDailyTokens, total);
    assert.equal(all.summary.currentStreakDays, 1);
    assert.equal(all.summary.longestStreakDays, 1);
    assert.equal(typeof all.summary.longestRunningTurnSec, 'number');
    assert.equal(all.threadUsage, null);

    // Cost at $2 / $0.5 / $10 per million: fresh input, cached input, output, in micro-dollars.
    const cost = (input: number, cached: number, output: number) =>
      (input - cached) * 2 + cached * 0.5 + output * 10;
    const costA = cost(1000, 400, 200) + cost(3000, 0, 100);
    const costB = cost(500, 0, 50);
    const breakdown = all.breakdown!;
    assert.equal(breakdown.today, day);
    assert.equal(breakdown.pricesKey, 'usage.prices');
    assert.equal(breakdown.threadCount, 2);
    assert.deepEqual(
      breakdown.threads.map((t) => [t.threadId, t.title, t.tokens.totalTokens, t.estimatedUsdMicros]),
      [
        [a, 'First', 4300, costA],
        [b, 'Third', 550, costB],
      ],
    );
    assert.deepEqual(
      breakdown.models.map((m) => [m.model, m.priced, m.tokens.totalTokens, m.estimatedUsdMicros]),
      [['test-model', true, total, costA + costB]],
    );
    assert.deepEqual(breakdown.models[0]!.tokens, {
      inputTokens: 4500,
      cachedInputTokens: 400,
      cacheWriteInputTokens: 0,
      outputTokens: 350,
      reasoningOutputTokens: 40,
      totalTokens: total,
    });
    assert.deepEqual(breakdown.days, [
      {
        date: day,
        tokens: breakdown.models[0]!.tokens,
        estimatedUsdMicros: costA + costB,
        unpricedTokens: 0,
      },
    ]);

    // One thread: its groups per model and effort, and its estimate.
    const onlyA = await read(first, { threadId: a });
    assert.equal(onlyA.summary.lifetimeTokens, 4300);
    assert.deepEqual(onlyA.threadUsage, {
      threadId: a,
      groups: [
        {
          model: 'test-model',
          reasoningEffort: null,
          speed: null,
          inputTokens: 4000,
          cachedInputTokens: 400,
          netNewInputTokens: 3600,
          outputTokens: 300,
          totalTokens: 4300,
          estimatedUsageCreditsMicros: 0,
        },
      ],
      estimatedUsageCreditsMicros: 0,
      estimatedUsageUsdMicros: costA,
      nativeUsageUsdMicros: null,
    });
    assert.equal(onlyA.breakdown, undefined, 'the breakdown only when asked');
    assert.ok(first.alive);
    await first.stop();
    assert.ok(existsSync(join(home, 'usage-index.json')), 'the usage cache is saved in the home');

    // After a restart the numbers are the same; a broken cache is rebuilt from the rollouts.
    const second = await serve(home);
    assert.deepEqual(await read(second, { breakdown: true }), all);
    await second.stop();
    writeFileSync(join(home, 'usage-index.json'), '{"version":1,"files":{"x":');
    const third = await serve(home);
    assert.deepEqual(await read(third, { breakdown: true }), all);
    assert.match(readFileSync(join(home, 'usage-index.json'), 'utf8'), /"version":1/);

    // Archiving moves a rollout and keeps its tokens; deleting a thread takes them away.
    await checkedCall(third, 'thread/archive', { threadId: b });
    assert.deepEqual(await read(third, { breakdown: true }), all);
    await checkedCall(third, 'thread/delete', { threadId: b });
    const afterDelete = await read(third, {});
    assert.equal(afterDelete.summary.lifetimeTokens, 4300);
  });

  it('counts the tokens a compaction spends with the thread', async () => {
    model.script(
      { output: [{ text: 'An answer' }], usage: { input: 100, output: 10 } },
      { output: [{ text: 'A summary' }], usage: { input: 70, output: 30 } },
    );
    const server = await serve(agentHome('responses', model.baseUrl));
    const threadId = await startThread(server);
    const first = await runTurn(server, threadId, 'Hello');
    await server.call('thread/compact/start', { threadId });
    const started = await server.next(
      (m) => m.method === 'turn/started' && (m.params as { turn: Turn }).turn.id !== first.id,
    );
    assert.equal(
      (await turnCompleted(server, (started.params as { turn: Turn }).turn.id)).status,
      'completed',
    );
    const usage = await read(server, { threadId });
    assert.equal(usage.summary.lifetimeTokens, 210);
    assert.deepEqual(
      usage.threadUsage!.groups.map((g) => [g.model, g.inputTokens, g.outputTokens]),
      [['test-model', 170, 40]],
    );
    assert.equal(usage.threadUsage!.estimatedUsageUsdMicros, null, 'no price set');
  });

  it('refuses bad params with -32602 and an unknown thread with a clear error, and stays up', async () => {
    const home = agentHome('responses', model.baseUrl);
    const server = await serve(home);
    for (const params of [
      { threadId: 42 },
      { threadId: '' },
      { breakdown: 'yes' },
      { threadLimit: 0 },
      [1],
    ]) {
      const error = await errorOf(server, 'account/usage/read', params);
      assert.equal(error.code, -32602, JSON.stringify(params));
    }
    // A price table written through config/value/write is checked as the usage sums read it.
    for (const [value, why] of [
      [{ input: 1 }, /usage\.prices\."m" needs input and output prices/],
      [{ input: 1, output: -2 }, /needs input and output prices/],
      [{ input: 1, output: 2, cached_input: 'cheap' }, /usage\.prices\."m"\.cached_input must be a number/],
    ] as const) {
      const refused = await errorOf(server, 'config/value/write', {
        keyPath: 'usage.prices.m',
        value,
        mergeStrategy: 'replace',
      });
      assert.equal(refused.code, -32602);
      assert.match(refused.message, why);
    }
    await checkedCall(server, 'config/value/write', {
      keyPath: 'usage.prices.m',
      value: { input: 1, output: 2 },
      mergeStrategy: 'replace',
    });
    const unknown = await errorOf(server, 'account/usage/read', {
      threadId: '00000000-0000-7000-8000-00000000abcd',
    });
    assert.match(unknown.message, /thread not found/);
    // Without params, as the reference allows, and null params.
    await read(server, undefined);
    await read(server, null);
    assert.ok(server.alive);
  });

  it("keeps Threadline's breakdown from clients that did not opt into experimentalApi", async () => {
    const server = await start(agentHome('responses', model.baseUrl), 'codex_tui', agentEnv);
    const error = await errorOf(server, 'account/usage/read', { breakdown: true });
    assert.match(error.message, /experimental/i);
    const plain = await read(server, {});
    assert.equal(plain.breakdown, undefined);
  });
});
