// Failures every wire must treat alike, through the real clients against the scripted model
// server: HTTP errors and their classes, retries and their events, idle and cut streams, the
// caller's abort, and credentials kept out of every error.
import { strict as assert } from 'node:assert';
import { createServer } from 'node:net';
import { createModelClient } from '../../../../server/providers/index';
import type { WireApi } from '../../../../server/providers/types';
import { useModelServer } from '../../../fixtures/modelServer/server';
import { API_KEY, hello, ofType, play, providerFor, requestWith, textOf } from './helpers';

const WIRES: WireApi[] = ['responses', 'chat', 'anthropic'];
const FAST = { 'retry-after-ms': '1' };

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

for (const wire of WIRES) {
  describe(`provider failures: ${wire}`, () => {
    const server = useModelServer();
    const provider = (o = {}) => providerFor(wire, server, o);

    describe('HTTP errors before the stream', () => {
      const cases: [string, { status: number; message?: string; code?: string }, string][] = [
        ['400', { status: 400, message: 'bad tool schema' }, 'badRequest'],
        [
          '400 about the context',
          { status: 400, message: 'prompt is too long: 300000 tokens', code: 'context_length_exceeded' },
          'contextWindowExceeded',
        ],
        ['401', { status: 401, message: 'invalid key' }, 'unauthorized'],
        ['403', { status: 403, message: 'forbidden' }, 'unauthorized'],
        [
          '429 for quota',
          { status: 429, message: 'You exceeded your current quota', code: 'insufficient_quota' },
          'usageLimitExceeded',
        ],
      ];
      for (const [name, httpError, kind] of cases) {
        it(`${name} → ${kind}, not retried`, async () => {
          server.script({ httpError });
          const { error } = await play(provider(), requestWith(hello));
          assert.equal(error?.name, 'ModelError');
          assert.equal(error?.kind, kind);
          assert.equal(error?.httpStatus, httpError.status);
          assert.equal(server.requests.length, 1);
        });
      }

      it('404 names the model and the URL', async () => {
        server.script({ httpError: { status: 404, message: 'model not found' } });
        const { error } = await play(provider(), requestWith(hello, { model: 'no-such-model' }));
        assert.equal(error?.kind, 'badRequest');
        assert.match(error!.message, /no-such-model/);
        assert.ok(error!.message.includes(server.baseUrl), error!.message);
      });
    });

    describe('retries', () => {
      it('retries a 500, says so, then streams the answer', async () => {
        server.script({ httpError: { status: 500, headers: FAST } }, { output: [{ text: 'ok' }] });
        const { events, error } = await play(provider(), requestWith(hello));
        assert.equal(error, null);
        const [retrying, ...others] = ofType(events, 'retrying');
        assert.equal(others.length, 0);
        assert.equal(retrying!.attempt, 1);
        assert.equal(retrying!.delayMs, 1, 'retry-after-ms is honoured');
        assert.equal(retrying!.error.kind, 'internalServerError');
        assert.equal(retrying!.error.httpStatus, 500);
        assert.equal(events[0]!.type, 'retrying');
        assert.equal(textOf(events), 'ok');
        assert.equal(server.requests.length, 2);
      });

      it('retries a rate limit (429 without a quota code)', async () => {
        server.script(
          { httpError: { status: 429, message: 'slow down', headers: FAST } },
          { output: [{ text: 'ok' }] },
        );
        const { events, error } = await play(provider(), requestWith(hello));
        assert.equal(error, null);
        assert.equal(ofType(events, 'retrying')[0]!.error.httpStatus, 429);
      });

      it('gives up after request_max_retries with responseTooManyFailedAttempts and the last status', async () => {
        for (const status of [500, 502, 503]) server.script({ httpError: { status, headers: FAST } });
        const { events, error } = await play(provider({ requestMaxRetries: 2 }), requestWith(hello));
        assert.equal(error?.kind, 'responseTooManyFailedAttempts');
        assert.equal(error?.httpStatus, 503);
        assert.deepEqual(
          ofType(events, 'retrying').map((e) => e.attempt),
          [1, 2],
        );
        assert.equal(server.requests.length, 3);
      });

      it('reports httpConnectionFailed without a status when nothing listens', async () => {
        const port = await closedPort();
        const down = provider({ baseUrl: `http://127.0.0.1:${port}/v1`, requestMaxRetries: 1 });
        const { events, error } = await play(down, requestWith(hello));
        assert.equal(error?.kind, 'httpConnectionFailed');
        assert.equal(error?.httpStatus, null);
        assert.equal(ofType(events, 'retrying').length, 1);
      });

      it('retries a stream that goes idle, from scratch', async () => {
        server.script(
          { output: [{ text: ['a', 'b', 'c'] }], stallAfterEvents: 3 },
          { output: [{ text: 'ok' }] },
        );
        const started = Date.now();
        const { events, error } = await play(provider({ streamIdleTimeoutMs: 150 }), requestWith(hello));
        assert.equal(error, null);
        const retrying = ofType(events, 'retrying');
        assert.equal(retrying.length, 1);
        assert.equal(retrying[0]!.error.kind, 'responseStreamDisconnected');
        assert.match(retrying[0]!.error.message, /no data for 150 ms/);
        const afterRetry = events.slice(events.indexOf(retrying[0]!) + 1);
        assert.equal(textOf(afterRetry), 'ok');
        assert.ok(Date.now() - started < 2_000);
      });

      it('reports a stream cut short as responseStreamDisconnected once its retries are spent', async () => {
        const cut = { output: [{ text: ['a', 'b', 'c', 'd'] }], cutAfterEvents: 4 };
        server.script(cut, cut);
        const { events, error } = await play(provider({ streamMaxRetries: 1 }), requestWith(hello));
        assert.equal(error?.kind, 'responseStreamDisconnected');
        assert.equal(ofType(events, 'retrying').length, 1);
        assert.equal(server.requests.length, 2);
      });

      it('counts request retries and stream retries apart', async () => {
        server.script(
          { httpError: { status: 503, headers: FAST } },
          { output: [{ text: 'abc' }], cutAfterEvents: 2 },
          { output: [{ text: 'ok' }] },
        );
        const p = provider({ requestMaxRetries: 1, streamMaxRetries: 1 });
        const { events, error } = await play(p, requestWith(hello));
        assert.equal(error, null);
        assert.deepEqual(
          ofType(events, 'retrying').map((e) => [e.attempt, e.error.kind]),
          [
            [1, 'internalServerError'],
            [1, 'responseStreamDisconnected'],
          ],
        );
      });
    });

    describe('abort', () => {
      it('aborts mid-stream at once with an AbortError, never a retry', async () => {
        const deltas = Array.from({ length: 50 }, (_, i) => `d${i} `);
        server.script({ output: [{ text: deltas }], eventDelayMs: 20 });
        const controller = new AbortController();
        const events = [];
        let abortedAt = 0;
        let caught: Error | null = null;
        try {
          for await (const event of createModelClient(provider(), API_KEY).stream(
            requestWith(hello),
            controller.signal,
          )) {
            events.push(event);
            if (event.type === 'messageDelta' && !abortedAt) {
              abortedAt = Date.now();
              controller.abort();
            }
          }
        } catch (error) {
          caught = error as Error;
        }
        assert.equal(caught?.name, 'AbortError');
        assert.ok(Date.now() - abortedAt < 100, `took ${Date.now() - abortedAt} ms`);
        assert.equal(ofType(events, 'retrying').length, 0);
        assert.equal(server.requests.length, 1);
      });

      it('aborts while waiting to retry', async () => {
        server.script({ httpError: { status: 503, headers: { 'retry-after-ms': '5000' } } });
        const controller = new AbortController();
        const started = Date.now();
        let caught: Error | null = null;
        try {
          for await (const event of createModelClient(provider(), API_KEY).stream(
            requestWith(hello),
            controller.signal,
          )) {
            if (event.type === 'retrying') setTimeout(() => controller.abort(), 10);
          }
        } catch (error) {
          caught = error as Error;
        }
        assert.equal(caught?.name, 'AbortError');
        assert.ok(Date.now() - started < 1_000);
      });

      it('does not even send a request when the signal is already aborted', async () => {
        const controller = new AbortController();
        controller.abort();
        const { error } = await play(provider(), requestWith(hello), controller.signal);
        assert.equal(error?.name, 'AbortError');
        assert.equal(server.requests.length, 0);
      });
    });

    describe('credentials', () => {
      it('sends the key and extra headers, and does no retrying of its own', async () => {
        server.script({ output: [{ text: 'ok' }] });
        const p = provider({ httpHeaders: { 'x-team': 'blue' } });
        await play(p, requestWith(hello));
        const [request] = server.requests;
        // Anthropic's client sends the key as x-api-key or as a bearer token, depending on its version.
        const sent = request!.headers['x-api-key'] ?? request!.headers.authorization;
        assert.ok(sent?.includes(API_KEY));
        assert.equal(request!.headers['x-team'], 'blue');
        assert.equal(request!.headers['x-stainless-retry-count'] ?? '0', '0');
      });

      it('keeps the key and credential headers out of every error, even when the server echoes them', async () => {
        const token = 'Bearer tok-9876543210-HEADER';
        const echo = `key ${API_KEY} and ${token} were rejected`;
        const p = provider({ httpHeaders: { 'x-auth-token': token }, requestMaxRetries: 1 });
        const failures = [
          { httpError: { status: 401, message: echo } },
          { httpError: { status: 500, message: echo, headers: FAST } },
          { streamError: { code: 'invalid_prompt', message: echo } },
        ];
        for (const failure of failures) {
          server.reset();
          server.script(failure, failure);
          const { events, error } = await play(p, requestWith(hello));
          const retried = ofType(events, 'retrying').map((e) => e.error);
          for (const e of [error!, ...retried]) {
            const said = `${e.message} ${String(e.details)}`;
            assert.ok(!said.includes(API_KEY), said);
            assert.ok(!said.includes('tok-9876543210'), said);
          }
          assert.match(error!.message, /rejected/);
        }
      });
    });

    it('lists models', async () => {
      server.setModels(['model-a', 'model-b']);
      const ids = await createModelClient(provider(), API_KEY).listModels(new AbortController().signal);
      assert.deepEqual(ids, ['model-a', 'model-b']);
      assert.equal(server.requests[0]!.path, '/v1/models');
    });

    it('classifies a failed models list', async () => {
      const port = await closedPort();
      const down = provider({ baseUrl: `http://127.0.0.1:${port}/v1` });
      await assert.rejects(
        createModelClient(down, API_KEY).listModels(new AbortController().signal),
        (e: Error & { kind?: string }) => e.name === 'ModelError' && e.kind === 'httpConnectionFailed',
      );
    });
  });
}
