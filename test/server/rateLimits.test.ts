// account/rateLimits/read and account/rateLimits/updated come from the provider's own rate-limit
// response headers, on every wire: OpenAI's x-ratelimit-* (Responses and Chat Completions) and
// Anthropic's anthropic-ratelimit-*. A provider that sends none has null windows.
import { strict as assert } from 'node:assert';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, runTurn, startThread } from '../support/agent';
import { useServers } from '../support/serverProcess';

interface Snapshot {
  limitId: string;
  limitName: string;
  primary: { usedPercent: number; resetsAt: number | null } | null;
  secondary: { usedPercent: number; resetsAt: number | null } | null;
}

const openaiHeaders = {
  'x-ratelimit-limit-requests': '500',
  'x-ratelimit-remaining-requests': '375',
  'x-ratelimit-reset-requests': '1m30s',
  'x-ratelimit-limit-tokens': '10000',
  'x-ratelimit-remaining-tokens': '9000',
  'x-ratelimit-reset-tokens': '250ms',
};

describe('account rate limits from the provider’s headers', () => {
  const model = useModelServer();
  const start = useServers();

  for (const wire of ['responses', 'chat'] as const) {
    it(`reads OpenAI's x-ratelimit headers on the ${wire} wire, and tells the thread`, async () => {
      const server = await start(agentHome(wire, model.baseUrl), 'threadline_vscode', agentEnv);
      const before = await server.call<{ rateLimits: Snapshot }>('account/rateLimits/read');
      assert.deepEqual(before.rateLimits, {
        limitId: 'scripted',
        limitName: 'Scripted',
        primary: null,
        secondary: null,
      });

      const threadId = await startThread(server);
      model.script({ output: [{ text: 'ok' }], headers: openaiHeaders });
      const sent = Math.floor(Date.now() / 1000);
      assert.equal((await runTurn(server, threadId, 'Hi')).status, 'completed');
      const updated = (await server.notification('account/rateLimits/updated')).params as {
        rateLimits: Snapshot;
      };
      const read = await server.call<{ rateLimits: Snapshot; rateLimitsByLimitId: Record<string, Snapshot> }>(
        'account/rateLimits/read',
      );
      assert.deepEqual(read.rateLimits, updated.rateLimits);
      assert.deepEqual(read.rateLimitsByLimitId, { scripted: read.rateLimits });
      assert.equal(read.rateLimits.primary!.usedPercent, 25);
      assert.ok(Math.abs(read.rateLimits.primary!.resetsAt! - (sent + 90)) <= 3, 'resets in 1m30s');
      assert.equal(read.rateLimits.secondary!.usedPercent, 10);
      server.assertSchemaClean();
    });
  }

  it("reads Anthropic's anthropic-ratelimit headers", async () => {
    const server = await start(agentHome('anthropic', model.baseUrl), 'threadline_vscode', agentEnv);
    const threadId = await startThread(server);
    const reset = new Date(Date.now() + 60_000).toISOString();
    model.script({
      output: [{ text: 'ok' }],
      headers: {
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '49',
        'anthropic-ratelimit-requests-reset': reset,
        'anthropic-ratelimit-tokens-limit': '1000',
        'anthropic-ratelimit-tokens-remaining': '0',
        'anthropic-ratelimit-tokens-reset': reset,
      },
    });
    assert.equal((await runTurn(server, threadId, 'Hi')).status, 'completed');
    const { rateLimits } = await server.call<{ rateLimits: Snapshot }>('account/rateLimits/read');
    assert.equal(rateLimits.primary!.usedPercent, 2);
    assert.equal(rateLimits.secondary!.usedPercent, 100);
    assert.equal(rateLimits.secondary!.resetsAt, Math.ceil(Date.parse(reset) / 1000));
    server.assertSchemaClean();
  });

  it('keeps null windows when the provider sends no limits, or nonsense', async () => {
    const server = await start(agentHome('responses', model.baseUrl), 'threadline_vscode', agentEnv);
    const threadId = await startThread(server);
    model.script(
      { output: [{ text: 'ok' }] },
      {
        output: [{ text: 'ok' }],
        headers: { 'x-ratelimit-limit-requests': 'lots', 'x-ratelimit-remaining-requests': '-1' },
      },
    );
    await runTurn(server, threadId, 'one');
    await runTurn(server, threadId, 'two');
    assert.equal(server.notifications('account/rateLimits/updated').length, 0);
    const { rateLimits } = await server.call<{ rateLimits: Snapshot }>('account/rateLimits/read');
    assert.equal(rateLimits.primary, null);
    assert.equal(rateLimits.secondary, null);
    server.assertSchemaClean();
  });
});
