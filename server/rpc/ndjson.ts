// Newline-delimited JSON framing for vscode-jsonrpc (its built-in stream reader expects
// Content-Length headers). The server uses it on stdio and the extension on the server's pipes.
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AbstractMessageReader, AbstractMessageWriter, Disposable } from 'vscode-jsonrpc';
import type { DataCallback, Message, MessageReader, MessageWriter } from 'vscode-jsonrpc';
import { decodeMessage, type MalformedMessage } from './envelope';
import { DEFAULT_SOFT_BYTES, Outbox } from './outbox';
import { tickBatcher } from './tickBatch';

export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;
const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines without ever holding more than `maxLineBytes` of one line:
 * an oversized line is dropped as it streams in and reported once its end arrives. Pieces are
 * decoded as they arrive, so a long line is assembled as a string on V8's heap, which a collection
 * gives back, rather than in malloc'd buffers, which the C allocator tends to keep.
 */
export class LineSplitter {
  private pending = '';
  private pendingBytes = 0;
  private discardedBytes = 0;
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversized: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.take(chunk.subarray(start, end));
      this.finishLine();
      start = end + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  private take(piece: Buffer): void {
    if (this.discardedBytes > 0) {
      this.discardedBytes += piece.length;
    } else if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.discardedBytes = this.pendingBytes + piece.length;
      this.pending = '';
      this.pendingBytes = 0;
      this.decoder.end();
    } else if (piece.length > 0) {
      this.pending += this.decoder.write(piece);
      this.pendingBytes += piece.length;
    }
  }

  private finishLine(): void {
    if (this.discardedBytes > 0) {
      const bytes = this.discardedBytes;
      this.discardedBytes = 0;
      this.onOversized(bytes);
      return;
    }
    const line = this.pending + this.decoder.end();
    this.pending = '';
    this.pendingBytes = 0;
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (trimmed.trim().length > 0) this.onLine(trimmed);
  }
}

export interface NdjsonReaderOptions {
  maxLineBytes?: number;
  /** Called for lines that are not valid messages; without it they surface as reader errors. */
  onMalformed?: (error: MalformedMessage) => void;
  /** Called for every valid message before it reaches the connection; return false to drop it. */
  admit?: (message: Message) => boolean;
  /** Called when the input ends; without it the reader closes at once. */
  onEnd?: () => void;
}

export class NdjsonMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly maxLineBytes: number;

  constructor(
    private readonly readable: Readable,
    private readonly options: NdjsonReaderOptions = {},
  ) {
    super();
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  listen(callback: DataCallback): Disposable {
    const malformed = (error: MalformedMessage) =>
      this.options.onMalformed ? this.options.onMalformed(error) : this.fireError(new Error(error.message));
    const splitter = new LineSplitter(
      this.maxLineBytes,
      (line) => {
        const decoded = decodeMessage(line);
        if (!decoded.ok) return malformed(decoded.error);
        if (this.options.admit && !this.options.admit(decoded.message)) return;
        // One message that trips the JSON-RPC layer must not cost the lines after it.
        try {
          callback(decoded.message);
        } catch (error) {
          this.fireError(error);
        }
      },
      (bytes) =>
        malformed({
          code: -32600,
          message: `Invalid request: message of ${bytes} bytes exceeds the limit of ${this.maxLineBytes} bytes`,
          id: null,
        }),
    );
    const onData = (chunk: Buffer | string) =>
      splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    const onError = (error: Error) => this.fireError(error);
    let ended = false;
    const onEnd = () => {
      if (ended) return;
      ended = true;
      if (this.options.onEnd) this.options.onEnd();
      else this.fireClose();
    };
    this.readable.on('data', onData);
    this.readable.on('error', onError);
    this.readable.on('end', onEnd);
    this.readable.on('close', onEnd);
    return Disposable.create(() => {
      this.readable.off('data', onData);
      this.readable.off('error', onError);
      this.readable.off('end', onEnd);
      this.readable.off('close', onEnd);
    });
  }

  pause(): void {
    this.readable.pause();
  }

  resume(): void {
    this.readable.resume();
  }
}

export interface NdjsonWriterOptions {
  /** Sees every message as it is written (the server uses it to settle in-flight request ids). */
  observe?: (message: Message) => void;
  /** Told when output starts waiting for the reader and when all of it went out. */
  onBackpressure?: (blocked: boolean) => void;
}

/**
 * Messages longer than this (a long answer's completed item) are written a slice at a time, each
 * once the one before has gone out. Written whole, the stream would copy one into a second string
 * (with its newline) and then into a native buffer of up to 3 bytes per character, all for as long
 * as the reader takes to read it.
 */
const SLICE_CHARS = 1024 * 1024;

function writeInSlices(writable: Writable, text: string, done: () => void): void {
  let at = 0;
  const next = (): void => {
    if (writable.destroyed || writable.writableEnded) return done();
    let end = Math.min(at + SLICE_CHARS, text.length);
    // A surrogate pair cut in two would be written as two replacement characters.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    const last = end === text.length;
    const slice = last ? `${text.slice(at)}\n` : text.slice(at, end);
    at = end;
    writable.write(slice, last ? () => done() : () => next());
  };
  next();
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Writes are never awaited on the reader: they wait in an {@link Outbox} when the pipe is full. */
export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;
  private readonly outbox: Outbox;

  constructor(
    private readonly writable: Writable,
    private readonly options: NdjsonWriterOptions = {},
  ) {
    super();
    writable.on('error', (error: Error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
    const batch = tickBatcher(writable);
    /** A long message is being written a slice at a time: nothing else may go between its slices. */
    let slicing = false;
    const sink = {
      buffered: () => (slicing ? Infinity : writable.writableLength),
      send: (text: string, written: () => void) => {
        if (writable.destroyed || writable.writableEnded) return written();
        batch();
        if (text.length <= SLICE_CHARS) return void writable.write(`${text}\n`, written);
        slicing = true;
        writeInSlices(writable, text, () => {
          slicing = false;
          written();
        });
      },
    };
    // The reader of a pipe is never given up on. On the server's stdio it is the client that owns
    // the server (it started it; without it the server has no one to work for), so dropping it would
    // end its threads and turns for a pause. What waits for it stays bounded all the same: deltas are
    // joined (one copy of each streamed text, and command output is capped where it is produced),
    // and the owner stops reading its requests while output waits (onBackpressure).
    this.outbox = new Outbox(
      sink,
      { softBytes: DEFAULT_SOFT_BYTES, hardBytes: null },
      { onBlocked: (blocked) => options.onBackpressure?.(blocked), onOverflow: () => {} },
    );
  }

  write(message: Message): Promise<void> {
    this.options.observe?.(message);
    if (this.writable.destroyed || this.writable.writableEnded) return Promise.resolve();
    try {
      this.outbox.push(message);
    } catch (error) {
      this.fireError(error, message, ++this.errorCount);
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  end(): void {
    this.writable.end();
  }
}
