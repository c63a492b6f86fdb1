// Secrets no rule knows by name or prefix: a long run of key characters that reads as random (mixed
// case and digits, high entropy) is taken for a key; a base64 run that decodes to text holding a
// secret is taken for that secret encoded. What is left alone, on purpose: hexadecimal (git commit
// and object ids, digests, UUIDs: a report needs them to be read, they grant nothing, and with one
// letter case they never pass the mixed-case test), and words, paths and identifiers (no digits, or
// too little entropy).
import { REDACTED } from './secretShapes';

// Runs of key characters (base64, base64url), cut at anything else: `.`, `:`, blanks, quotes.
const RUN = /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_=-]{24,}(?![A-Za-z0-9+/_=-])/g;
const MIN_BITS_PER_CHAR = 4;
// Base64 worth decoding: a secret's encoding is at least this long.
const BASE64 = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{12,}={0,2}(?![A-Za-z0-9+/_=-])/g;

/** Replaces runs that read as random keys, and base64 of text in which `holdsSecret` finds one. */
export function scrubRandomRuns(text: string, holdsSecret: (decoded: string) => boolean): string {
  return text
    .replace(BASE64, (run) => {
      const decoded = decodedText(run);
      return decoded !== null && holdsSecret(decoded) ? REDACTED : run;
    })
    .replace(RUN, (run) => (looksRandom(run) && !pathLike(run) ? REDACTED : run));
}

// A path or URL path has a lowercase word between its slashes (`src`, `blob`, `node_modules`); a
// key with slashes in it (base64) rarely does.
const pathLike = (run: string) =>
  run.includes('/') && run.split('/').some((part) => /^[a-z][a-z_-]{2,}$/.test(part));

/**
 * Mixed case and digits, spread the way random characters spread: high entropy, and the kind of
 * character (upper, lower, digit) changing often, as it does about two times in three at random but
 * only at word boundaries in an identifier (`CamelCaseName2`).
 */
export function looksRandom(run: string): boolean {
  if (NOT_SECRET_ID.test(run)) return false;
  if (!/[a-z]/.test(run) || !/[A-Z]/.test(run) || !/[0-9]/.test(run)) return false;
  if (kindChanges(run) < MIN_KIND_CHANGES * (run.length - 1)) return false;
  return bitsPerChar(run) >= Math.min(MIN_BITS_PER_CHAR, Math.log2(run.length) - 0.7);
}

// The ids model services give calls, messages and responses (random, but a report needs them to
// pair a call with its output) and digests written in base64 (`sha512-…` in a lockfile): they grant
// nothing.
const NOT_SECRET_ID =
  /^(?:(?:call|fc|msg|resp|rs|ws|item|toolu|srvtoolu|chatcmpl|ctc|ig|mcp|run|thread)[_-]|sha\d+-)/;
const MIN_KIND_CHANGES = 0.45;

function kindChanges(run: string): number {
  const kind = (char: string) =>
    /[a-z]/.test(char) ? 0 : /[A-Z]/.test(char) ? 1 : /[0-9]/.test(char) ? 2 : 3;
  let changes = 0;
  for (let i = 1; i < run.length; i++) if (kind(run[i]!) !== kind(run[i - 1]!)) changes++;
  return changes;
}

/** Shannon entropy of the run's characters, in bits per character. */
function bitsPerChar(run: string): number {
  const counts = new Map<string, number>();
  for (const char of run) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / run.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The text base64 (or base64url) decodes to, when it is text at all. */
function decodedText(run: string): string | null {
  const decoded = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  if (decoded.length < 8) return null;
  const printable = decoded.replace(/[^\x20-\x7e\t\r\n]/g, '').length;
  return printable / decoded.length >= 0.95 ? decoded : null;
}
