// Decoding and encoding of single JSON-RPC messages as they appear on our wire: one JSON object,
// with "jsonrpc" accepted on input and omitted on output. Shared by every transport and by the
// extension's client, so both ends agree on what a well-formed message is.
import type { Message } from 'vscode-jsonrpc';

export type RequestId = string | number;

/** A line or frame we could not hand to the JSON-RPC layer, and the error it deserves. */
export interface MalformedMessage {
  code: number;
  message: string;
  id: RequestId | null;
}

export type Decoded = { ok: true; message: Message } | { ok: false; error: MalformedMessage };

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function invalid(message: string, id: RequestId | null = null): Decoded {
  return { ok: false, error: { code: INVALID_REQUEST, message: `Invalid request: ${message}`, id } };
}

export function decodeMessage(text: string): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { code: PARSE_ERROR, message: `Parse error: ${detail}`, id: null } };
  }
  if (Array.isArray(value)) return invalid('batch messages are not supported; send one message per line');
  if (value === null || typeof value !== 'object') return invalid('a message must be a JSON object');
  const candidate = value as Record<string, unknown>;
  const id = isId(candidate.id) ? candidate.id : null;
  if ('jsonrpc' in candidate && candidate.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"', id);
  if ('method' in candidate) {
    if (typeof candidate.method !== 'string') return invalid('"method" must be a string', id);
    if ('id' in candidate && candidate.id !== undefined && !isId(candidate.id)) {
      return invalid('"id" must be a string or a number');
    }
    const params = candidate.params;
    if (params !== undefined && params !== null && typeof params !== 'object') {
      return invalid('"params" must be an object', id);
    }
    candidate.jsonrpc = '2.0';
    return { ok: true, message: candidate as unknown as Message };
  }
  if ('result' in candidate || 'error' in candidate) {
    if (!isId(candidate.id) && candidate.id !== null) return invalid('a response needs an "id"');
    candidate.jsonrpc = '2.0';
    return { ok: true, message: candidate as unknown as Message };
  }
  return invalid('a message needs a "method" (request or notification) or a "result"/"error" (response)', id);
}

/** The wire form of a message: the "jsonrpc" member is dropped, as the protocol specifies. */
export function encodeMessage(message: Message): string {
  const { jsonrpc: _omitted, ...rest } = message as Message & Record<string, unknown>;
  return JSON.stringify(rest);
}

export function errorResponse(error: MalformedMessage): Message {
  return { jsonrpc: '2.0', id: error.id, error: { code: error.code, message: error.message } } as Message;
}
