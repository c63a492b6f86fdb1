// Server-sent events, read straight off the response body. The SDKs' own stream readers pass every
// event through several layers of async generators and rescan their buffers; reading a chunk at a
// time and splitting it synchronously costs a fraction of that on a response of thousands of deltas.
import type { HeaderGetter } from './rateLimitHeaders';
import type { Progress } from './wire';

export interface SseEvent {
  /** The `event:` field, '' when the server sent none (as Chat Completions does). */
  event: string;
  data: string;
}

/**
 * Splits decoded text into events as it arrives; a block is complete at its blank line. Events
 * whose name `wanted` refuses are dropped, the long ones as they arrive (Responses repeats a whole
 * answer in several closing events nobody reads).
 */
export class SseParser {
  /** Text since the last complete block, in the pieces it came in. */
  private pending: string[] = [];
  private carriageReturn = false;
  /** The block being received is of an unwanted event: its text is not kept. */
  private dropping = false;

  constructor(private readonly wanted: (event: string) => boolean = () => true) {}

  push(text: string): SseEvent[] {
    if (this.carriageReturn) text = '\r' + text;
    // A CR at the end may be the first half of a CRLF; it waits for the next chunk.
    this.carriageReturn = text.endsWith('\r');
    if (this.carriageReturn) text = text.slice(0, -1);
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    // An event of megabytes (a long answer's final text) comes in many chunks: they are joined
    // once it is complete, not searched again with every chunk.
    const last = this.pending.at(-1);
    const ends = text.includes('\n\n') || (text.startsWith('\n') && last?.endsWith('\n') === true);
    if (!ends) {
      if (text) this.pending.push(text);
      this.dropIfUnwanted();
      return [];
    }
    // Joined in one go: `join() + text` would be copied a second time, when first searched.
    this.pending.push(text);
    const buffer = this.pending.length === 1 ? text : this.pending.join('');
    const events: SseEvent[] = [];
    let start = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
      const event = this.dropping ? null : parseBlock(buffer, start, end);
      if (event && this.wanted(event.event)) events.push(event);
      this.dropping = false;
      start = end + 2;
    }
    const rest = start < buffer.length ? buffer.slice(start) : '';
    // A slice keeps all the text it was cut from: after an event of megabytes, the start of the
    // next one (at most a chunk) is copied, so as not to hold the long one while the next arrives.
    this.pending = !rest ? [] : buffer.length > LONG_BLOCK ? [detached(rest)] : [rest];
    this.dropIfUnwanted();
    return events;
  }

  /** Once the block being received names an unwanted event, keeps only its last character. */
  private dropIfUnwanted(): void {
    const head = this.pending[0];
    if (!this.dropping) {
      const lineEnd = head?.indexOf('\n') ?? -1;
      if (lineEnd === -1 || !head!.startsWith('event:') || this.wanted(head!.slice(6, lineEnd).trim()))
        return;
      this.dropping = true;
    }
    // The last character may be the first half of the blank line that ends the block.
    this.pending = [this.pending.at(-1)!.slice(-1)];
  }
}

const LONG_BLOCK = 1024 * 1024;

/** A copy of `text` that shares no memory with the string it was sliced from. */
const detached = (text: string) => Buffer.from(text, 'utf16le').toString('utf16le');

function parseBlock(text: string, start: number, end: number): SseEvent | null {
  let event = '';
  let data: string | null = null;
  while (start < end) {
    let lineEnd = text.indexOf('\n', start);
    if (lineEnd === -1 || lineEnd > end) lineEnd = end;
    const colon = text.indexOf(':', start);
    // A line starting with a colon is a comment (keep-alives); a line without one is a bare field name.
    if (colon !== start) {
      const hasValue = colon !== -1 && colon < lineEnd;
      const field = text.slice(start, hasValue ? colon : lineEnd);
      let valueStart = hasValue ? colon + 1 : lineEnd;
      if (text.charCodeAt(valueStart) === 32) valueStart++;
      const value = valueStart < lineEnd ? text.slice(valueStart, lineEnd) : '';
      if (field === 'data') data = data === null ? value : `${data}\n${value}`;
      else if (field === 'event') event = value;
    }
    start = lineEnd + 1;
  }
  return data === null ? null : { event, data };
}

/**
 * Sends the request, then yields the events of its response body a chunk's worth at a time. Each
 * chunk counts as life for the idle timeout; aborting the request's signal ends the read with the
 * fetch's own abort error.
 */
export async function* sseBatches(
  send: () => Promise<{ body: AsyncIterable<Uint8Array> | null; headers?: HeaderGetter }>,
  progress: Progress,
  wanted?: (event: string) => boolean,
): AsyncGenerator<SseEvent[]> {
  const { body, headers } = await send();
  progress.opened(headers);
  if (!body) return;
  const decoder = new TextDecoder();
  const parser = new SseParser(wanted);
  let loopTurned = Date.now();
  for await (const chunk of body) {
    progress.heard();
    const events = parser.push(decoder.decode(chunk, { stream: true }));
    if (events.length) yield events;
    // A body that has already arrived is read through promises alone, which never let the event loop
    // turn: one fast stream would hold every other client, socket and timer until it ended.
    if (Date.now() - loopTurned > YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      loopTurned = Date.now();
    }
  }
}

/**
 * Another client's small turn needs many turns of the loop (its request, the model's answer, the
 * rollout's writes): yielding every 10 ms made it wait 400–500 ms behind a 40,000-delta answer,
 * every 1 ms about 210 (bench/pausedClient.ts), at no cost to a streamed turn (bench/turnStream.ts).
 */
const YIELD_EVERY_MS = 1;
