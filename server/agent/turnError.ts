// How a failed model request is reported: the protocol's TurnError with its codexErrorInfo.
import type { CodexErrorInfo, TurnError } from '../protocol/thread';
import { TURN_NOT_SAVED } from '../protocol/turnNotSaved';
import { isModelError, type ModelError } from '../providers/types';

const WITH_STATUS = new Set([
  'httpConnectionFailed',
  'responseStreamConnectionFailed',
  'responseStreamDisconnected',
  'responseTooManyFailedAttempts',
]);

export function codexErrorInfo(error: ModelError): CodexErrorInfo {
  if (WITH_STATUS.has(error.kind)) {
    return { [error.kind]: { httpStatusCode: error.httpStatus } } as CodexErrorInfo;
  }
  return error.kind as CodexErrorInfo;
}

export function toTurnError(error: unknown): TurnError {
  if (isModelError(error)) {
    return {
      message: error.message,
      codexErrorInfo: codexErrorInfo(error),
      additionalDetails: error.details,
    };
  }
  // Anything else is our bug or the machine's problem; say what it was without a stack.
  if (error instanceof TurnNotSavedError) {
    return { message: error.message, codexErrorInfo: 'other', additionalDetails: null };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `Threadline failed to run the turn: ${message}`,
    codexErrorInfo: 'other',
    additionalDetails: null,
  };
}

/** A turn whose record could not be written (a full disk, a read-only home): why, and that it was lost. */
export class TurnNotSavedError extends Error {
  constructor(cause: unknown) {
    super(`${TURN_NOT_SAVED}${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';
