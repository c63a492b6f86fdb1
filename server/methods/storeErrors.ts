// Maps the thread store's errors to JSON-RPC errors, in one place for every method.
import { ErrorCodes, RpcError, invalidParams } from '../rpc/rpcError';
import { InvalidCursorError } from '../threads/listing';
import { HistoryError, StoreWriteError, ThreadNotFoundError } from '../threads/storeErrors';
import { SectionError } from '../threads/threadSections';
import { AttachmentError } from '../threads/threadAttachments';

export function toRpcError(error: unknown): unknown {
  if (error instanceof ThreadNotFoundError)
    return new RpcError(ErrorCodes.invalidRequest, `thread not found: ${error.threadId}`);
  if (error instanceof SectionError || error instanceof AttachmentError)
    return new RpcError(ErrorCodes.invalidRequest, error.message);
  if (error instanceof InvalidCursorError || error instanceof HistoryError)
    return invalidParams(error.message);
  if (error instanceof StoreWriteError)
    return new RpcError(ErrorCodes.internalError, `${error.message}; nothing was saved`);
  return error;
}
