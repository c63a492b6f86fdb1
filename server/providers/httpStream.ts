// One streamed POST over node:http(s). The official clients send through the global fetch, and the
// first use of fetch, Headers or Response loads undici's bundle: about 15 MiB of resident memory,
// more than the rest of a turn needs (measured: a bare `new Headers()` takes a Node process from 39
// to 51 MiB). The turn's hot path therefore speaks HTTP itself; the clients still list models.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
}

/** What a non-2xx answer throws: the shape errors.ts classifies (status, the parsed body, headers). */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly error: unknown,
    readonly headers: { get(name: string): string | null },
  ) {
    super(`HTTP ${status}`);
  }
}

const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Sends the request; resolves with the response body once a 2xx status arrives. */
export function postForStream(
  req: StreamRequest,
): Promise<{ body: AsyncIterable<Uint8Array>; headers: { get(name: string): string | null } }> {
  const url = new URL(req.url);
  const payload = JSON.stringify(req.body);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    if (req.signal.aborted) return reject(req.signal.reason);
    const outgoing = send(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'content-length': Buffer.byteLength(payload),
        ...req.headers,
      },
      signal: req.signal,
    });
    outgoing.on('error', (error) => reject(req.signal.aborted ? req.signal.reason : error));
    outgoing.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        return resolve({ body: abortable(response, req.signal), headers: headerGetter(response) });
      }
      readCapped(response).then(
        (text) => reject(new HttpStatusError(status, parseBody(text), headerGetter(response))),
        reject,
      );
    });
    outgoing.end(payload);
  });
}

/** The body's chunks; a read cut by the caller's abort throws the abort's reason, not a socket error. */
async function* abortable(response: IncomingMessage, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  try {
    yield* response;
  } catch (error) {
    throw signal.aborted ? signal.reason : error;
  } finally {
    response.destroy();
  }
}

async function readCapped(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    if (size < MAX_ERROR_BODY_BYTES) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, MAX_ERROR_BODY_BYTES);
}

/** A JSON error body as the provider sent it; plain text becomes `{message}` so it is still quoted. */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.trim() ? { message: text.trim() } : null;
  }
}

function headerGetter(response: IncomingMessage): { get(name: string): string | null } {
  return {
    get(name) {
      const value = response.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** `base` + `path`, keeping the provider's query parameters. */
export function endpoint(base: string, path: string, query: Record<string, string>): string {
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}
