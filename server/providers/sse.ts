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

/** Splits decoded text into events as it arrives; a block is complete at its blank line. */
export class SseParser {
  private buffer = '';
  private carriageReturn = false;

  push(text: string): SseEvent[] {
    if (this.carriageReturn) text = '\r' + text;
    // A CR at the end may be the first half of a CRLF; it waits for the next chunk.
    this.carriageReturn = text.endsWith('\r');
    if (this.carriageReturn) text = text.slice(0, -1);
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    const buffer = this.buffer + text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
      const event = parseBlock(buffer, start, end);
      if (event) events.push(event);
      start = end + 2;
    }
    this.buffer = start === 0 ? buffer : buffer.slice(start);
    return events;
  }
}

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
): AsyncGenerator<SseEvent[]> {
  const { body, headers } = await send();
  progress.opened(headers);
  if (!body) return;
  const decoder = new TextDecoder();
  const parser = new SseParser();
  for await (const chunk of body) {
    progress.heard();
    const events = parser.push(decoder.decode(chunk, { stream: true }));
    if (events.length) yield events;
  }
}
