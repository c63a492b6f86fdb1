// Removes secrets from text that goes into a feedback bundle: every secret we know by value (stored
// keys and tokens, credential-looking environment variables), also wrapped across lines or base64
// encoded; then anything shaped like a key (secretShapes.ts); then runs that read as random keys
// and base64 that decodes to a secret (secretEntropy.ts).
import { scrubRandomRuns } from './secretEntropy';
import { REDACTED, scrubShapes } from './secretShapes';

export { REDACTED };

const MIN_SECRET = 8;
const CREDENTIAL_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|CREDENTIAL|PAT$/i;
// A line break inside a value, as written or escaped in JSON, and the indentation after it.
const BREAK = String.raw`(?:\r?\n|\\r\\n|\\n)[ \t]*`;

/** Values of this process's environment variables named like credentials. */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => CREDENTIAL_NAME.test(name) && (value?.length ?? 0) >= MIN_SECRET)
    .map(([, value]) => value!);
}

export function scrubber(secrets: string[]): (text: string) => string {
  // Longest first, so a secret that contains another is removed whole.
  const known = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET))].sort(
    (a, b) => b.length - a.length,
  );
  const wrapped = known.map((secret) => new RegExp([...secret].map(escape).join(`(?:${BREAK})?`), 'g'));
  const encoded = [...new Set(known.flatMap(base64Cores))];
  const removeKnown = (text: string) => {
    let out = text;
    for (const pattern of wrapped) out = out.replace(pattern, REDACTED);
    for (const core of encoded) out = out.split(core).join(REDACTED);
    return out;
  };
  const holdsSecret = (decoded: string) =>
    removeKnown(decoded) !== decoded || scrubShapes(decoded) !== decoded;
  return (text) => scrubRandomRuns(scrubShapes(removeKnown(text)), holdsSecret);
}

const escape = (char: string) => char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The part of a secret's base64 that is the same wherever it sits in the encoded data: for each of
 * the three byte alignments, the characters that depend on the secret's bytes alone.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [0, 1, 2].flatMap((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Skip the characters that mix in the padding bytes before, and those that mix in what follows.
    const start = Math.ceil((shift * 4) / 3);
    const end = Math.floor(((shift + bytes.length) * 4) / 3);
    const core = encoded.slice(start, end);
    return core.length >= 12 ? [core] : [];
  });
}
