// Removes secrets from text that goes into a feedback bundle: every secret we know by value (stored
// keys and tokens, credential-looking environment variables), then anything shaped like a key.
const MIN_SECRET = 8;
const CREDENTIAL_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|CREDENTIAL|PAT$/i;
const SHAPES: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|github_pat|glpat|xox[abpr])[-_][A-Za-z0-9_-]{16,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
];
// A key-looking name followed by its value: the value goes, the name stays for context.
const ASSIGNED =
  /((?:api[_-]?key|token|secret|password|authorization)["']?\s*[:=]\s*["']?(?:Bearer\s+)?)([^\s"',;]{8,})/gi;
const BEARER = /(Bearer\s+)([A-Za-z0-9._~+/=-]{12,})/g;
export const REDACTED = '[redacted]';

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
  return (text) => {
    let out = text;
    for (const secret of known) out = out.split(secret).join(REDACTED);
    for (const shape of SHAPES) out = out.replace(shape, REDACTED);
    return out.replace(ASSIGNED, `$1${REDACTED}`).replace(BEARER, `$1${REDACTED}`);
  };
}
