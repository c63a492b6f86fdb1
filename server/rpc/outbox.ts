// The messages on their way to one client, with a byte budget. While the transport takes them
// they go straight through; once it holds `softBytes` the client is not keeping up, and messages
// wait here instead, where deltas of the same stream are joined into one (a paused client then
// costs one copy of each streamed text, not a JSON envelope per token). Past `hardBytes` waiting
// the client is given up on. Nothing here ever waits for the client, so a slow one holds up
// neither the turn that produces the messages nor the other clients.
import { Message, type NotificationMessage } from 'vscode-jsonrpc';
import { deltaRule, type DeltaRule } from './deltaCoalescing';
import { encodeMessage } from './envelope';

export interface OutboxSink {
  /** Bytes the transport holds that have not been written out yet. */
  buffered(): number;
  /** Hands one encoded message to the transport; `written` runs once it has left (or failed). */
  send(text: string, written: () => void): void;
}

export interface OutboxLimits {
  /** Past this many bytes held by the transport, messages wait here and deltas are joined. */
  softBytes: number;
  /** Past this many bytes waiting here the client is given up on; null: never. */
  hardBytes: number | null;
}

export interface OutboxHooks {
  /** Messages started waiting (true) or all went out (false). */
  onBlocked(blocked: boolean): void;
  /** More than `hardBytes` waited: everything waiting was dropped, and so will be what comes. */
  onOverflow(waitingBytes: number): void;
}

export const MiB = 1024 * 1024;
export const DEFAULT_SOFT_BYTES = MiB;

type Params = Record<string, unknown>;

interface Joined {
  method: string;
  rule: DeltaRule;
  stream: string;
  /** The last piece's params: its other fields (capReached) describe the joined one. */
  params: Params;
  pieces: string[];
  bytes: number;
}

type Waiting = { text: string; bytes: number } | Joined;

export class Outbox {
  private waiting: Waiting[] = [];
  private waitingBytes = 0;
  /** Joined deltas that may still take pieces: none once another kind of message waits behind them. */
  private readonly open = new Map<string, Joined>();
  private blocked = false;
  private overflowed = false;
  private pumping = false;

  constructor(
    private readonly sink: OutboxSink,
    private readonly limits: OutboxLimits,
    private readonly hooks: OutboxHooks,
  ) {}

  /** Encoding errors (a value JSON cannot hold) are thrown here, to the writer of the message. */
  push(message: Message): void {
    if (this.overflowed) return;
    if (this.waiting.length === 0 && this.sink.buffered() < this.limits.softBytes) {
      this.sink.send(encodeMessage(message), this.pump);
      return;
    }
    this.enqueue(message);
    if (!this.blocked) {
      this.blocked = true;
      this.hooks.onBlocked(true);
    }
    if (this.limits.hardBytes !== null && this.waitingBytes > this.limits.hardBytes) {
      const bytes = this.waitingBytes;
      this.overflowed = true;
      this.waiting = [];
      this.waitingBytes = 0;
      this.open.clear();
      this.hooks.onOverflow(bytes);
    }
  }

  private enqueue(message: Message): void {
    const rule = Message.isNotification(message) ? deltaRule(message.method) : undefined;
    const params = (message as NotificationMessage).params as Params | undefined;
    const piece = rule && params ? params[rule.field] : undefined;
    if (!rule || typeof piece !== 'string') {
      // Deltas never move past another kind of message: what waits behind this one stays behind.
      this.open.clear();
      const text = encodeMessage(message);
      this.add({ text, bytes: Buffer.byteLength(text) });
      return;
    }
    const method = (message as NotificationMessage).method;
    const stream = `${method}\u0000${rule.stream(params!)}`;
    const joined = this.open.get(stream);
    if (joined) {
      const bytes = Buffer.byteLength(piece);
      joined.pieces.push(piece);
      joined.params = params!;
      joined.bytes += bytes;
      this.waitingBytes += bytes;
      return;
    }
    const first: Joined = {
      method,
      rule,
      stream,
      params: params!,
      pieces: [piece],
      bytes: Buffer.byteLength(encodeMessage(message)),
    };
    this.open.set(stream, first);
    this.add(first);
  }

  private add(entry: Waiting): void {
    this.waiting.push(entry);
    this.waitingBytes += entry.bytes;
  }

  /** Hands waiting messages to the transport while it has room; runs as each write completes. */
  private readonly pump = (): void => {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiting.length > 0 && this.sink.buffered() < this.limits.softBytes) {
        const entry = this.waiting.shift()!;
        this.waitingBytes -= entry.bytes;
        this.sink.send(this.render(entry), this.pump);
      }
    } finally {
      this.pumping = false;
    }
    if (this.blocked && this.waiting.length === 0) {
      this.blocked = false;
      this.hooks.onBlocked(false);
    }
  };

  private render(entry: Waiting): string {
    if ('text' in entry) return entry.text;
    if (this.open.get(entry.stream) === entry) this.open.delete(entry.stream);
    const { method, rule, params, pieces } = entry;
    const joined = pieces.length === 1 ? pieces[0]! : rule.join(pieces);
    return encodeMessage({ jsonrpc: '2.0', method, params: { ...params, [rule.field]: joined } } as Message);
  }
}
