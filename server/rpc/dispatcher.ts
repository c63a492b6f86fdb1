// Routes a request to its handler after the checks every method shares: known method, handshake
// order, params validation against the protocol schema, and experimental gating.
import type { ClientMethod, ParamsOf, ResultOf } from '../protocol/methods';
import { experimentalUse, isClientMethod, validateParams } from '../protocol/validate';
import type { Logger } from '../log';
import type { Dispatch, Peer } from './clientConnection';
import { ErrorCodes, invalidRequest, RpcError } from './rpcError';

export interface RequestContext {
  peer: Peer;
  method: ClientMethod;
}

/** One method's handler: its params and result are the method table's, checked by the compiler. */
export type Handler<M extends ClientMethod> = (
  params: ParamsOf<M>,
  context: RequestContext,
) => ResultOf<M> | Promise<ResultOf<M>>;

/** A method family's handlers, keyed by method; a key that is not a method does not compile. */
export type HandlerTable = { readonly [M in ClientMethod]?: Handler<M> };

/** Turns a domain error (a missing thread, a bad cursor) into the JSON-RPC error a client sees. */
export type ErrorMapper = (error: unknown) => unknown;

export function createDispatcher(handlers: HandlerTable, log: Logger, mapError: ErrorMapper): Dispatch {
  return async (peer, method, rawParams) => {
    if (!isClientMethod(method)) throw new RpcError(ErrorCodes.methodNotFound, `Method not found: ${method}`);
    if (method === 'initialize') {
      if (peer.initialized) throw invalidRequest('Already initialized');
    } else if (!peer.initialized) {
      throw invalidRequest('Not initialized');
    }
    try {
      return await run(handlers, method, rawParams, peer, log);
    } catch (error) {
      throw mapError(error);
    }
  };
}

async function run<M extends ClientMethod>(
  handlers: HandlerTable,
  method: M,
  rawParams: unknown,
  peer: Peer,
  log: Logger,
): Promise<ResultOf<M>> {
  const handler: Handler<M> | undefined = handlers[method];
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
}
