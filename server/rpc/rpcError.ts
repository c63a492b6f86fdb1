// An error a handler throws to answer a request with a specific JSON-RPC error.
export const ErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  serverOverloaded: -32001,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const invalidRequest = (message: string) => new RpcError(ErrorCodes.invalidRequest, message);
export const invalidParams = (message: string) => new RpcError(ErrorCodes.invalidParams, message);
