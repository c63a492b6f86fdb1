// Who may open a WebSocket to the server. A loopback port is reachable from every web page the user
// visits (a browser lets any site open ws://127.0.0.1), from DNS-rebound hostnames and from every
// local program, and a connection can run commands, so the handshake is checked before anything
// else happens.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isLoopback } from './listen';

export interface AdmissionPolicy {
  /** The address and port the listener is bound to. */
  host: string;
  port: number;
  /** Browser origins let in (`--allow-origin`); any other Origin header is refused. */
  allowOrigins: readonly string[];
  /** Every client must send `Authorization: Bearer <token>`, on loopback too. */
  token: string;
}

export type Admission = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export function admitHandshake(headers: IncomingHttpHeaders, policy: AdmissionPolicy): Admission {
  const origin = headers.origin;
  // Browsers always send Origin on a WebSocket handshake; native clients (the Codex TUI, our
  // extension) do not. So an Origin means a web page, which is refused unless named.
  if (origin !== undefined && !policy.allowOrigins.includes(origin)) {
    return { ok: false, status: 403, reason: `origin ${origin} is not allowed (see --allow-origin)` };
  }
  if (isLoopback(policy.host) && !isOwnHost(headers.host, policy)) {
    return { ok: false, status: 403, reason: `host ${headers.host ?? '(none)'} is not this listener` };
  }
  if (!bearerMatches(headers.authorization, policy.token)) {
    return { ok: false, status: 401, reason: 'missing or wrong bearer token' };
  }
  return { ok: true };
}

/**
 * A name that resolves to loopback only through the attacker's DNS (rebinding) reaches this port
 * with its own name in Host; the listener's own address, or `localhost`, is what a local client sends.
 */
function isOwnHost(host: string | undefined, policy: AdmissionPolicy): boolean {
  if (!host) return false;
  const bound = policy.host.includes(':') ? `[${policy.host}]` : policy.host;
  const names = [bound, 'localhost'];
  const accepted = names.map((name) => `${name}:${policy.port}`);
  if (policy.port === 80) accepted.push(...names);
  return accepted.includes(host.toLowerCase());
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  // Digests have one length whatever was sent, so the comparison takes the same time either way.
  return timingSafeEqual(digest(match[1]!), digest(token));
}

const digest = (text: string) => createHash('sha256').update(text).digest();
