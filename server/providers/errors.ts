// Turns what a model API or the network said into our error classes, and decides what is worth
// retrying. One classifier for every wire, so the same failure means the same thing everywhere.
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

const CONTEXT =
  /context[_ ](length|window)|maximum context|prompt is too long|too many tokens|input is too long/i;
const QUOTA = /insufficient_quota|quota|usage limit|billing|credit balance/i;

/** Classifies an HTTP error answer from a provider. */
export function httpError(provider: string, status: number, body: string, code: string | null): WireError {
  const said = body ? `: ${body}` : '';
  const message = `${provider} answered HTTP ${status}${said}`;
  const details = code ? `code: ${code}` : null;
  const signal = `${code ?? ''} ${body}`;
  if (status === 400 || status === 413) {
    if (CONTEXT.test(signal)) return new WireError('contextWindowExceeded', message, false, status, details);
    return new WireError('badRequest', message, false, status, details);
  }
  if (status === 401 || status === 403) return new WireError('unauthorized', message, false, status, details);
  if (status === 429) {
    if (QUOTA.test(signal)) return new WireError('usageLimitExceeded', message, false, status, details);
    return new WireError('other', message, true, status, details);
  }
  if (status === 408 || status === 409 || status >= 500) {
    return new WireError('internalServerError', message, true, status, details);
  }
  return new WireError('badRequest', message, false, status, details);
}

/** Classifies a failure event inside a stream (response.failed, an Anthropic error event, …). */
export function streamFailure(provider: string, code: string, text: string): WireError {
  const message = `${provider} reported an error: ${text || code}`;
  const signal = `${code} ${text}`;
  if (CONTEXT.test(signal))
    return new WireError('contextWindowExceeded', message, false, null, `code: ${code}`);
  if (QUOTA.test(signal)) return new WireError('usageLimitExceeded', message, false, null, `code: ${code}`);
  const retryable = /server_error|overloaded|rate_limit|internal|timeout|unavailable/i.test(code);
  return new WireError(
    retryable ? 'internalServerError' : 'other',
    message,
    retryable,
    null,
    `code: ${code}`,
  );
}

export const disconnected = (provider: string, why: string) =>
  new WireError('responseStreamDisconnected', `${provider}: ${why}`, true);

/**
 * Classifies whatever an SDK call threw. The official clients throw errors with `status` for HTTP
 * answers and connection errors without one; the body's own message is preferred to theirs.
 */
export function classify(provider: string, error: unknown): WireError {
  if (error instanceof WireError) return error;
  const e = error as { status?: unknown; error?: unknown; message?: string; name?: string; cause?: unknown };
  if (typeof e.status === 'number') {
    const body = errorBody(e.error);
    return httpError(provider, e.status, body.message ?? '', body.code);
  }
  const why = rootCause(error);
  return new WireError('httpConnectionFailed', `cannot reach ${provider}: ${why}`, true);
}

function errorBody(value: unknown): { message: string | null; code: string | null } {
  const outer = (value ?? {}) as { error?: unknown; message?: unknown; code?: unknown; type?: unknown };
  const inner = (
    typeof outer.error === 'object' && outer.error !== null ? outer.error : outer
  ) as typeof outer;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
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
