// Secrets never reach the log: JSON-RPC messages are traced with credential fields and key-shaped
// strings replaced. Pure, so the rule is tested on its own.

const REDACTED = '[redacted]';

/** Field names whose values are credentials wherever they appear (apiKey, api_key, authorization, …). */
const secretField =
  /^(api[-_]?key|authorization|access[-_]?token|refresh[-_]?token|id[-_]?token|token|secret|password|client[-_]?secret)$/i;

/** Strings that look like provider keys or bearer tokens, even inside free text. */
const secretText = /\b(sk-(?:ant-)?[A-Za-z0-9_-]{8,}|Bearer\s+[A-Za-z0-9._~+/-]{8,}=*)/g;

export function redactText(text: string): string {
  return text.replace(secretText, REDACTED);
}

/** A copy of `value` with secrets replaced; the original is left alone. */
export function redactSecrets(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    copy[key] =
      secretField.test(key) && field !== null && field !== undefined ? REDACTED : redactSecrets(field);
  }
  return copy;
}
