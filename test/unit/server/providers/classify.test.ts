// The error classifier, the backoff and the idle timeout on their own, without a server.
import { strict as assert } from 'node:assert';
import type { WireError } from '../../../../server/providers/errors';
import { classify, httpError, redact, secretsOf, streamFailure } from '../../../../server/providers/errors';
import { IdleTimeout } from '../../../../server/providers/idleTimeout';
import { backoffDelay, retryAfter } from '../../../../server/providers/retry';

const ctx = { provider: 'P', url: 'http://h/v1/responses', model: 'm-1', secrets: ['sk-secret-123456'] };
const kindOf = (e: WireError) => [e.kind, e.retryable];

describe('provider error classification', () => {
  it('classifies HTTP answers by status, code and message', () => {
    const table: [number, string, string | null, string, boolean][] = [
      [400, 'bad schema', null, 'badRequest', false],
      [400, 'This model’s maximum context length is 128000 tokens', null, 'contextWindowExceeded', false],
      [400, 'x', 'context_length_exceeded', 'contextWindowExceeded', false],
      [400, 'Your credit balance is too low', 'invalid_request_error', 'usageLimitExceeded', false],
      [413, 'prompt is too long', 'request_too_large', 'contextWindowExceeded', false],
      [401, 'invalid key', null, 'unauthorized', false],
      [403, 'forbidden', null, 'unauthorized', false],
      [404, 'not found', null, 'badRequest', false],
      [408, 'timeout', null, 'internalServerError', true],
      [409, 'conflict', null, 'internalServerError', true],
      [422, 'unprocessable', null, 'badRequest', false],
      [429, 'slow down', 'rate_limit_exceeded', 'other', true],
      [429, 'You exceeded your current quota', 'insufficient_quota', 'usageLimitExceeded', false],
      [429, 'usage limit reached', null, 'usageLimitExceeded', false],
      [500, 'oops', 'server_error', 'internalServerError', true],
      [503, 'unavailable', null, 'internalServerError', true],
      [529, 'Overloaded', 'overloaded_error', 'internalServerError', true],
    ];
    for (const [status, body, code, kind, retryable] of table) {
      const error = httpError(ctx, status, body, code);
      assert.deepEqual(kindOf(error), [kind, retryable], `${status} ${body}`);
      assert.equal(error.httpStatus, status);
      assert.equal(error.details, code ? `code: ${code}` : null);
    }
  });

  it('names the model and the URL for a 404', () => {
    const error = httpError(ctx, 404, 'The model does not exist', null);
    assert.equal(
      error.message,
      'P has no model "m-1" at http://h/v1/responses (HTTP 404: The model does not exist)',
    );
  });

  it('classifies error events inside a stream by their code', () => {
    const table: [string, string, string, boolean][] = [
      ['context_length_exceeded', 'too long', 'contextWindowExceeded', false],
      ['insufficient_quota', 'quota', 'usageLimitExceeded', false],
      ['usage_limit_reached', 'limit', 'usageLimitExceeded', false],
      ['rate_limit_exceeded', 'slow down', 'internalServerError', true],
      ['server_error', 'oops', 'internalServerError', true],
      ['overloaded_error', 'Overloaded', 'internalServerError', true],
      ['api_error', 'Internal', 'internalServerError', true],
      ['invalid_prompt', 'flagged', 'other', false],
    ];
    for (const [code, text, kind, retryable] of table) {
      assert.deepEqual(kindOf(streamFailure('P', code, text)), [kind, retryable], code);
    }
  });

  it('reads what the official clients throw', () => {
    const http = Object.assign(new Error('400 bad'), { status: 400, error: { message: 'bad', code: 'x' } });
    assert.deepEqual(kindOf(classify(ctx, http, false)), ['badRequest', false]);
    // Anthropic's errors carry the whole body; OpenAI's only its `error` member.
    const anthropicEvent = Object.assign(new Error('Overloaded'), {
      status: undefined,
      error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    assert.deepEqual(kindOf(classify(ctx, anthropicEvent, true)), ['internalServerError', true]);
    const openaiEvent = Object.assign(new Error('x'), { error: { code: 'server_error', message: 'x' } });
    assert.deepEqual(kindOf(classify(ctx, openaiEvent, true)), ['internalServerError', true]);
    const refused = new Error('Connection error.', {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    const before = classify(ctx, refused, false);
    assert.deepEqual(kindOf(before), ['httpConnectionFailed', true]);
    assert.equal(before.httpStatus, null);
    assert.match(before.message, /ECONNREFUSED/);
    assert.deepEqual(kindOf(classify(ctx, new Error('terminated'), true)), [
      'responseStreamDisconnected',
      true,
    ]);
  });

  it('blanks out secrets and bearer tokens', () => {
    const error = httpError(
      ctx,
      401,
      'bad key sk-secret-123456, Authorization: Bearer abc.def',
      'sk-secret-123456',
    );
    const clean = redact(error, ctx.secrets);
    assert.equal(clean.message, 'P answered HTTP 401: bad key [redacted], Authorization: Bearer [redacted]');
    assert.equal(clean.details, 'code: [redacted]');
    assert.equal(clean.kind, 'unauthorized');
    assert.ok(
      !classify(
        ctx,
        Object.assign(new Error(), { status: 401, error: { message: 'sk-secret-123456' } }),
        false,
      ).message.includes('sk-secret'),
    );
    assert.deepEqual(
      secretsOf('sk-secret-123456', {
        'X-Api-Key': 'hdr-secret-1',
        'X-Team': 'blue-team',
        Authorization: 'short',
      }),
      ['sk-secret-123456', 'hdr-secret-1'],
    );
  });
});

describe('provider retry timing', () => {
  it('backs off exponentially with full jitter, capped at 10 s', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => backoffDelay(n, () => 1)),
      [200, 400, 800, 1600],
    );
    assert.equal(
      backoffDelay(12, () => 1),
      10_000,
    );
    assert.equal(
      backoffDelay(3, () => 0),
      0,
    );
    assert.equal(
      backoffDelay(3, () => 0.5),
      400,
    );
  });

  it('honours retry-after-ms and retry-after, capped', () => {
    const withHeaders = (h: Record<string, string>) => ({ headers: new Headers(h) });
    assert.equal(retryAfter(withHeaders({ 'retry-after-ms': '250' })), 250);
    assert.equal(retryAfter(withHeaders({ 'retry-after': '2' })), 2000);
    assert.equal(retryAfter(withHeaders({ 'retry-after': '3600' })), 10_000);
    assert.equal(retryAfter(withHeaders({ 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' })), null);
    assert.equal(retryAfter(withHeaders({})), null);
    assert.equal(retryAfter(new Error('no headers')), null);
  });

  it('fires the idle timeout only after a quiet period, however often it is touched', async () => {
    let fired = 0;
    const idle = new IdleTimeout(60, () => fired++);
    const touching = setInterval(idle.touch, 10);
    await new Promise((resolve) => setTimeout(resolve, 150));
    clearInterval(touching);
    assert.equal(fired, 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(fired, 1);
    assert.ok(idle.expired);
    idle.stop();
  });
});
