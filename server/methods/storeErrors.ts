// Maps the thread store's errors to JSON-RPC errors, in one place for every thread method.
import type { HandlerTable } from '../rpc/dispatcher';
import { ErrorCodes, RpcError, invalidParams } from '../rpc/rpcError';
import { InvalidCursorError } from '../threads/listing';
import { HistoryError, ThreadNotFoundError } from '../threads/threadStore';

export function toRpcError(error: unknown): unknown {
  if (error instanceof ThreadNotFoundError)
    return new RpcError(ErrorCodes.invalidRequest, `thread not found: ${error.threadId}`);
  if (error instanceof InvalidCursorError || error instanceof HistoryError)
    return invalidParams(error.message);
  return error;
}

export function withStoreErrors(handlers: HandlerTable): HandlerTable {
  return Object.fromEntries(
    Object.entries(handlers).map(([method, handler]) => [
      method,
      async (params: unknown, context: Parameters<typeof handler>[1]) => {
        try {
          return await handler(params, context);
        } catch (error) {
          throw toRpcError(error);
        }
      },
    ]),
  );
}
