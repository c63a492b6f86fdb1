// Routes a request to its handler after the checks every method shares: known method, handshake
// order, params validation against the protocol schema, and experimental gating.
import { experimentalUse, isClientMethod, validateParams } from '../protocol/validate';
import type { Logger } from '../log';
import type { Dispatch, Peer } from './clientConnection';
import { ErrorCodes, invalidRequest, RpcError } from './rpcError';

export interface RequestContext {
  peer: Peer;
  method: string;
}

// Params are validated against the method's schema before a handler runs, so handlers are typed
// by the method table rather than here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (params: any, context: RequestContext) => unknown;
export type HandlerTable = Readonly<Record<string, Handler>>;

export function createDispatcher(handlers: HandlerTable, log: Logger): Dispatch {
  return async (peer, method, rawParams) => {
    if (!isClientMethod(method)) throw new RpcError(ErrorCodes.methodNotFound, `Method not found: ${method}`);
    if (method === 'initialize') {
      if (peer.initialized) throw invalidRequest('Already initialized');
    } else if (!peer.initialized) {
      throw invalidRequest('Not initialized');
    }
    const handler = handlers[method];
    if (!handler) {
      throw new RpcError(ErrorCodes.methodNotFound, `Method not supported by this server yet: ${method}`);
    }
    const validated = validateParams(method, rawParams);
    if (!validated.ok) throw new RpcError(ErrorCodes.invalidParams, validated.message);
    const gated = experimentalUse(method, validated.value);
    if (gated !== undefined && !peer.experimentalApi) {
      throw invalidRequest(`${gated} requires experimentalApi capability`);
    }
    log.trace(`connection ${peer.id}: ${method}`);
    return handler(validated.value, { peer, method });
  };
}
