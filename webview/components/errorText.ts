// What a turn error means for the user, from the protocol's codexErrorInfo.
import type { CodexErrorInfo, TurnError } from '../../server/protocol/thread';

const explanations: Record<string, string> = {
  contextWindowExceeded:
    'The conversation no longer fits in the model’s context window. Compact the thread or start a new one.',
  usageLimitExceeded: 'The account’s usage limit is reached. Try again later or use another provider.',
  rateLimitExceeded: 'The provider is rate-limiting requests. Wait a moment and try again.',
  serverOverloaded: 'The model provider is overloaded right now. Try again in a little while.',
  modelNotFound: 'The provider does not know this model. Pick another model below.',
  internalServerError: 'The model provider had an internal error. Trying again usually helps.',
  unauthorized: 'The provider rejected the API key. Sign in again with a valid key.',
  apiKeyMissing: 'No API key is set for this provider, so nothing was sent. Sign in with an API key.',
  badRequest: 'The provider refused the request as malformed.',
  threadRollbackFailed: 'The thread could not be rolled back.',
  sandboxError: 'The sandbox failed to run a command.',
  httpConnectionFailed: 'Could not connect to the model provider. Check the network and the provider’s URL.',
  responseStreamConnectionFailed: 'The connection to the model’s response stream failed.',
  responseStreamDisconnected: 'The model’s response stream was cut off before it finished.',
  responseTooManyFailedAttempts: 'The request failed after several retries.',
};

export function errorKind(info: CodexErrorInfo | null | undefined): string | undefined {
  if (!info) return undefined;
  return typeof info === 'string' ? info : Object.keys(info)[0];
}

export function explainError(error: TurnError): string {
  const kind = errorKind(error.codexErrorInfo);
  const status =
    error.codexErrorInfo && typeof error.codexErrorInfo === 'object'
      ? Object.values(error.codexErrorInfo)[0]?.httpStatusCode
      : undefined;
  const explanation = (kind && explanations[kind]) ?? 'The turn failed.';
  return status ? `${explanation} (HTTP ${status})` : explanation;
}
