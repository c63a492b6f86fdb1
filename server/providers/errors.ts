// Turns what a model API or the network said into our error classes, and decides what is worth
// retrying. One classifier for every wire, so the same failure means the same thing everywhere.
//
// | failure                                              | kind                    | retried |
// | ---------------------------------------------------- | ----------------------- | ------- |
// | HTTP 400/413 saying the context is too long          | contextWindowExceeded   | no      |
// | HTTP 400/402/403/429 about quota, billing or credit  | usageLimitExceeded      | no      |
// | HTTP 400, 413, 422 and any other 4xx not listed      | badRequest              | no      |
// | HTTP 401/403                                         | unauthorized            | no      |
// | HTTP 404 (names the model and the URL)               | badRequest              | no      |
// | HTTP 429 otherwise                                   | other                   | yes     |
// | HTTP 408/409/5xx                                     | internalServerError     | yes     |
// | no HTTP answer at all (refused, reset, DNS)          | httpConnectionFailed    | yes     |
// | error event in the stream: context / quota codes     | as for HTTP             | no      |
// | error event: server_error, overloaded, rate limit, … | internalServerError     | yes     |
// | error event: anything else                           | other                   | no      |
// | stream cut, idle or ended before completion          | responseStreamDisconnected | yes  |
//
// When retries run out, retry.ts reports responseTooManyFailedAttempts with the last status,
// except for disconnects and connection failures, which keep their own kind.
import { ModelError, type ModelErrorKind } from './types';

/** A ModelError that also says whether trying again may help. */
export class WireError extends ModelError {
  constructor(
    kind: ModelErrorKind,
    message: string,
    readonly retryable: boolean,
    httpStatus: number | null = null,
    details: string | null = null,
  ) {
    super(kind, message, httpStatus, details);
  }
}

/** What the classifier needs to know about the request besides the error itself. */
export interface FailureContext {
  provider: string;
  /** The endpoint's URL, named when it answers 404. */
  url: string;
  model: string | null;
  /** Strings that must never appear in an error: the API key, credential header values. */
  secrets: string[];
}

const CONTEXT =
  /context[_ ](length|window)|maximum context|prompt is too long|too many tokens|input is too long/i;
const QUOTA = /insufficient_quota|quota|usage[_ ]limit|billing|credit balance/i;
const RETRYABLE_CODE = /server_error|overloaded|rate_limit|internal|timeout|unavailable|api_error/i;

/** Classifies an HTTP error answer from a provider. */
export function httpError(ctx: FailureContext, status: number, body: string, code: string | null): WireError {
  const said = body ? `: ${body}` : '';
  const message = `${ctx.provider} answered HTTP ${status}${said}`;
  const details = code ? `code: ${code}` : null;
  const signal = `${code ?? ''} ${body}`;
  const error = (kind: ModelErrorKind, retryable = false, text = message) =>
    new WireError(kind, text, retryable, status, details);
  if ((status === 400 || status === 413) && CONTEXT.test(signal)) return error('contextWindowExceeded');
  if ([400, 402, 403, 429].includes(status) && QUOTA.test(signal)) return error('usageLimitExceeded');
  if (status === 401 || status === 403) return error('unauthorized');
  if (status === 404) {
    const model = ctx.model ? `model "${ctx.model}" at ` : '';
    return error('badRequest', false, `${ctx.provider} has no ${model}${ctx.url} (HTTP 404${said})`);
  }
  if (status === 429) return error('other', true);
  if (status === 408 || status === 409 || status >= 500) return error('internalServerError', true);
  return error('badRequest');
}

/** Classifies a failure event inside a stream (response.failed, an Anthropic error event, …). */
export function streamFailure(provider: string, code: string, text: string): WireError {
  const message = `${provider} reported an error: ${text || code}`;
  const signal = `${code} ${text}`;
  const details = `code: ${code}`;
  if (CONTEXT.test(signal)) return new WireError('contextWindowExceeded', message, false, null, details);
  if (QUOTA.test(signal)) return new WireError('usageLimitExceeded', message, false, null, details);
  const retryable = RETRYABLE_CODE.test(code);
  return new WireError(retryable ? 'internalServerError' : 'other', message, retryable, null, details);
}

export const disconnected = (provider: string, why: string) =>
  new WireError('responseStreamDisconnected', `${provider}: ${why}`, true);

/**
 * Classifies whatever an attempt threw. The official clients throw errors with `status` for HTTP
 * answers, errors with a body but no status for error events inside a stream, and errors with
 * neither when the connection failed; once a stream has begun, such a failure is a cut stream.
 */
export function classify(ctx: FailureContext, error: unknown, streaming: boolean): WireError {
  return redact(rawClassify(ctx, error, streaming), ctx.secrets);
}

function rawClassify(ctx: FailureContext, error: unknown, streaming: boolean): WireError {
  if (error instanceof WireError) return error;
  const e = error as { status?: unknown; error?: unknown; headers?: unknown };
  const body = errorBody(e.error);
  if (typeof e.status === 'number') return httpError(ctx, e.status, body.message ?? '', body.code);
  if (body.message !== null || body.code !== null) {
    return streamFailure(ctx.provider, body.code ?? 'error', body.message ?? '');
  }
  const why = rootCause(error);
  if (streaming) return disconnected(ctx.provider, `the stream broke off (${why})`);
  return new WireError('httpConnectionFailed', `cannot reach ${ctx.provider} at ${ctx.url}: ${why}`, true);
}

/** The provider's own message and code, from either SDK's error shape (the body or its `error`). */
function errorBody(value: unknown): { message: string | null; code: string | null } {
  if (typeof value !== 'object' || value === null) return { message: null, code: null };
  const outer = value as { error?: unknown; message?: unknown; code?: unknown; type?: unknown };
  const inner = (
    typeof outer.error === 'object' && outer.error !== null ? outer.error : outer
  ) as typeof outer;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return { message: str(inner.message), code: str(inner.code) ?? str(inner.type) };
}

function rootCause(error: unknown): string {
  let current = error as { message?: string; cause?: unknown; code?: string } | undefined;
  let text = current?.message ?? String(error);
  for (let depth = 0; current?.cause && depth < 5; depth++) {
    current = current.cause as typeof current;
    text = current?.code ?? current?.message ?? text;
  }
  return text;
}

/** The same error with every secret (and anything shaped like a bearer token) blanked out. */
export function redact(error: WireError, secrets: string[]): WireError {
  const scrub = (text: string) => {
    let out = text.replace(/(bearer\s+)[^\s"',]+/gi, '$1[redacted]');
    for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
    return out;
  };
  const message = scrub(error.message);
  const details = error.details === null ? null : scrub(error.details);
  if (message === error.message && details === error.details) return error;
  return new WireError(error.kind, message, error.retryable, error.httpStatus, details);
}

/** The strings to keep out of errors: the key and any credential-like header value. */
export function secretsOf(apiKey: string | null, headers: Record<string, string>): string[] {
  const secrets = apiKey ? [apiKey] : [];
  for (const [name, value] of Object.entries(headers)) {
    if (/auth|key|token|secret|cookie/i.test(name)) secrets.push(value);
  }
  // A very short "secret" would blank out ordinary words; real credentials are long.
  return secrets.filter((s) => s.length >= 8);
}
