// Requests this server sends to one client (approvals, user input). We number and track them
// ourselves rather than through vscode-jsonrpc, because callers need the id (serverRequest/resolved
// names it) and because an answer nobody waits for must be ignored with a log line, not thrown.
import type { Message } from 'vscode-jsonrpc';
import type { RequestId } from './envelope';

export interface SentRequest {
  id: RequestId;
  /** The client's result; rejects with the client's error, or when the connection closes. */
  result: Promise<unknown>;
}

export class ClientAnswerError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Waiting {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

export class OutgoingRequests {
  private nextId = 0;
  private readonly waiting = new Map<RequestId, Waiting>();

  constructor(private readonly onIgnored: (reason: string) => void) {}

  /** Registers a request; the caller writes `message` to the client. */
  create(method: string, params: unknown): { sent: SentRequest; message: Message } {
    const id = this.nextId++;
    const result = new Promise<unknown>((resolve, reject) =>
      this.waiting.set(id, { method, resolve, reject }),
    );
    // Nobody may be listening any more when a closed connection rejects it.
    result.catch(() => {});
    return { sent: { id, result }, message: { jsonrpc: '2.0', id, method, params } as Message };
  }

  /** Whether a message from the client is a response (to us, or stray); responses stop here. */
  isResponse(message: Message): boolean {
    const m = message as { method?: unknown; id?: unknown };
    return m.method === undefined && ('result' in message || 'error' in message);
  }

  settle(message: Message): void {
    const { id, result, error } = message as { id?: RequestId | null; result?: unknown; error?: unknown };
    const waiting = id === undefined || id === null ? undefined : this.waiting.get(id);
    if (!waiting) {
      this.onIgnored(`ignored a response to unknown or already answered request ${JSON.stringify(id)}`);
      return;
    }
    this.waiting.delete(id!);
    if (error !== undefined) {
      const { code, message: text } = (error ?? {}) as { code?: unknown; message?: unknown };
      waiting.reject(
        new ClientAnswerError(
          typeof code === 'number' ? code : 0,
          `the client answered ${waiting.method} with an error: ${typeof text === 'string' ? text : 'no message'}`,
        ),
      );
    } else {
      waiting.resolve(result);
    }
  }

  /** The connection closed: nothing will be answered. */
  closeAll(): void {
    for (const [id, waiting] of this.waiting) {
      waiting.reject(
        new Error(`the connection closed before request ${id} (${waiting.method}) was answered`),
      );
    }
    this.waiting.clear();
  }
}
