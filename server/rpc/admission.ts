// Ingress control for one connection: bounds the number of requests being processed at once and
// keeps request ids unique while in flight. vscode-jsonrpc keys its queue by id, so a duplicate
// would silently replace the first request; we answer it with an error instead.
import type { Message } from 'vscode-jsonrpc';
import { errorResponse, type MalformedMessage, type RequestId } from './envelope';

export const SERVER_OVERLOADED = -32001;
export const DEFAULT_MAX_IN_FLIGHT = 512;

/** Marks a message that is dropped without an answer. */
export const IGNORED: MalformedMessage = { code: 0, message: 'ignored', id: null };

// vscode-jsonrpc acts on its own `$/` notifications (cancellation, tracing) and throws on malformed
// ones; the app-server protocol uses none of them, so they never reach it.
function isReservedNotification(method: unknown, id: unknown): boolean {
  return typeof method === 'string' && method.startsWith('$/') && (id === undefined || id === null);
}

export class Admission {
  private readonly inFlight = new Set<RequestId>();
  // Our own error answers to rejected messages must not settle an earlier request with the same id.
  private readonly rejections = new WeakSet<object>();
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly maxInFlight = DEFAULT_MAX_IN_FLIGHT) {}

  get size(): number {
    return this.inFlight.size;
  }

  /** Returns the error to answer with, or undefined when the message may proceed. */
  admit(message: Message): MalformedMessage | undefined {
    const { id, method } = message as { id?: RequestId | null; method?: unknown };
    if (isReservedNotification(method, id)) return IGNORED;
    if (typeof method !== 'string' || id === undefined || id === null) return undefined;
    if (this.inFlight.has(id)) {
      return { code: -32600, message: `Invalid request: id ${JSON.stringify(id)} is already in use`, id };
    }
    if (this.inFlight.size >= this.maxInFlight) {
      return { code: SERVER_OVERLOADED, message: 'Server overloaded; retry later.', id };
    }
    this.inFlight.add(id);
    return undefined;
  }

  /** The error response for a message that was not admitted (or could not be parsed). */
  rejection(error: MalformedMessage): Message {
    const response = errorResponse(error);
    this.rejections.add(response);
    return response;
  }

  /** Called for every outgoing message; a response settles its request. */
  settle(message: Message): void {
    if (this.rejections.has(message)) return;
    const { id, method } = message as { id?: RequestId | null; method?: unknown };
    if (method === undefined && id !== undefined && id !== null) this.inFlight.delete(id);
    if (this.inFlight.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Resolves once every admitted request has been answered. */
  idle(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
