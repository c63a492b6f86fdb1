// The client half shared by the stdio and WebSocket test clients: sends requests, matches
// responses, collects notifications, and validates everything received against the reference schema.
import { strict as assert } from 'node:assert';
import { validateServerMessage } from './codexSchema';

export type Id = number | string;
export interface Incoming {
  id?: Id | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
  [key: string]: unknown;
}

interface Waiter {
  match: (message: Incoming) => boolean;
  resolve: (message: Incoming) => void;
}

let nextId = 1;

export class MessageLog {
  readonly received: Incoming[] = [];
  readonly schemaProblems: string[] = [];
  private readonly methodsById = new Map<Id, string>();
  private waiters: Waiter[] = [];

  constructor(private readonly write: (text: string) => void) {}

  /** Sends raw text (a line is added); for malformed-input tests. */
  sendRaw(text: string): void {
    this.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  send(message: Record<string, unknown>): void {
    if (typeof message.id === 'number' || typeof message.id === 'string') {
      if (typeof message.method === 'string') this.methodsById.set(message.id, message.method);
    }
    this.sendRaw(JSON.stringify(message));
  }

  /** Sends a request and resolves with the whole response (result or error). */
  request(method: string, params?: unknown, id: Id = nextId++): Promise<Incoming> {
    const response = this.next((m) => m.id === id && m.method === undefined);
    this.send(params === undefined ? { id, method } : { id, method, params });
    return response;
  }

  /** Sends a request and resolves with its result; a JSON-RPC error fails the test. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const response = await this.request(method, params);
    if (response.error) assert.fail(`${method} failed: ${response.error.code} ${response.error.message}`);
    return response.result as T;
  }

  async initialize(options: { experimentalApi?: boolean; name?: string; optOut?: string[] } = {}) {
    const result = await this.call('initialize', {
      clientInfo: { name: options.name ?? 'threadline_tests', title: 'Threadline tests', version: '0.0.1' },
      capabilities: {
        experimentalApi: options.experimentalApi ?? false,
        optOutNotificationMethods: options.optOut ?? null,
      },
    });
    this.send({ method: 'initialized' });
    return result;
  }

  notifications(method: string): Incoming[] {
    return this.received.filter((m) => m.method === method && m.id === undefined);
  }

  /** Resolves with the first message, already received or still to come, that matches. */
  next(match: (message: Incoming) => boolean, timeoutMs = 10_000): Promise<Incoming> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for a message`));
      }, timeoutMs);
      const waiter: Waiter = {
        match,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      this.waiters.push(waiter);
    });
  }

  notification(method: string, match: (params: Record<string, unknown>) => boolean = () => true) {
    return this.next(
      (m) => m.method === method && m.id === undefined && match(m.params as Record<string, unknown>),
    );
  }

  assertSchemaClean(): void {
    assert.deepEqual(
      this.schemaProblems,
      [],
      'the server sent messages that do not match the reference schema',
    );
  }

  protected receive(message: Incoming): void {
    this.received.push(message);
    const requestMethod =
      message.id !== undefined && message.id !== null ? this.methodsById.get(message.id) : undefined;
    for (const problem of validateServerMessage(message, requestMethod)) this.schemaProblems.push(problem);
    for (const waiter of this.waiters.filter((w) => w.match(message))) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(message);
    }
  }
}
