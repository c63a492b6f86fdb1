// Secrets known by their shape: private key blocks, JSON web tokens, the token formats of the common
// cloud, code-hosting, payment, chat and model services, credentials in URLs and headers, and values
// assigned to names that say they are secret (env, INI, TOML, YAML, JSON). The text is often JSON
// itself (a rollout line), so a newline may be written `\n` and a quote `\"`: every rule reads both,
// and none takes a backslash or a quote into what it removes, so the JSON stays whole.
export const REDACTED = '[redacted]';

// Characters of a PEM body and its headers (`Proc-Type: 4,ENCRYPTED`), a newline written or escaped.
const PEM_BODY = String.raw`(?:[A-Za-z0-9+/=:,. \t\r\n-]|\\[rn])`;
const PEM = new RegExp(
  String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----${PEM_BODY}*?` +
    String.raw`(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?!${PEM_BODY}))`,
  'g',
);

// Token formats, each with its service's own prefix.
const TOKENS: RegExp[] = [
  // JSON web tokens: a JSON header and payload (`{"` is `eyJ`), then the signature (none for alg none).
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), and other sk- keys.
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  // Stripe secret and restricted keys, webhook secrets.
  /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g,
  /\bwhsec_[A-Za-z0-9]{16,}/g,
  // GitHub (classic, OAuth, user-to-server, server, refresh; fine-grained), GitLab.
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{16,}/g,
  // Slack tokens and app tokens; its webhook URLs carry their secret in the path.
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bxapp-[A-Za-z0-9-]{10,}/g,
  /hooks\.slack\.com\/services\/[A-Za-z0-9/]{16,}/g,
  // AWS access key ids (long-term, temporary, and the other prefixes AWS documents).
  /\b(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b/g,
  // Google API keys, OAuth access tokens and client secrets.
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bya29\.[0-9A-Za-z_-]{20,}/g,
  /\bGOCSPX-[0-9A-Za-z_-]{20,}/g,
  // npm, PyPI, Hugging Face, SendGrid, DigitalOcean.
  /\bnpm_[A-Za-z0-9]{30,}/g,
  /\bpypi-[A-Za-z0-9_-]{30,}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g,
  /\bdo[por]_v1_[a-f0-9]{40,}/g,
];

// A name that says its value is secret: anything with `secret` in it, or ending in token, password,
// api key, access key or private key (`GITHUB_TOKEN`, `db.password`, `x-api-key`); not `tokens`
// (`total_tokens` counts them) nor `PWD` (a folder). Tested apart from the regex that finds
// assignments, which takes any name: one pattern for both would backtrack over long runs.
const SECRET_NAME =
  /secret|(?:token|passw(?:or)?d|pass|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?)$/i;
// A name (maybe quoted, maybe JSON-escaped), then `=`, `:` or `=>`, then an optional opening quote.
const ASSIGNMENT = /(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)(?:\\?["'])?[ \t]*(?:=>|[:=])[ \t]*(\\?["']?)/g;

const HEADER =
  /((?:proxy-)?authorization)(?:\\?["'])?[ \t]*[:=][ \t]*(\\?["']?)(?:(?:Bearer|Basic|Token|Digest|Bot|Negotiate|NTLM|ApiKey)[ \t]+)?/gi;
const BEARER = /(\bBearer[ \t]+)([A-Za-z0-9._~+/=-]{8,})/g;
const BASIC = /(\bBasic[ \t]+)([A-Za-z0-9+/]{8,}={0,2})/g;
// `scheme://user:password@host`: the password goes, the user and host stay for context.
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@"'\\]+:)([^\s/@"'\\]+)(@)/gi;

/** The text with every secret of a known shape replaced by REDACTED. */
export function scrubShapes(text: string): string {
  let out = text.replace(PEM, REDACTED);
  for (const token of TOKENS) out = out.replace(token, REDACTED);
  out = out.replace(URL_CREDENTIALS, `$1${REDACTED}$3`);
  out = replaceValues(out, HEADER, () => true);
  out = out.replace(BEARER, `$1${REDACTED}`);
  out = out.replace(BASIC, (whole, scheme: string, value: string) =>
    decodesToPair(value) ? `${scheme}${REDACTED}` : whole,
  );
  return replaceValues(out, ASSIGNMENT, (name) => SECRET_NAME.test(name));
}

/**
 * After each match of `opener` (which ends where the value starts; its second group the opening
 * quote, if any) whose first group `named` accepts, the value: up to the quote that opened it, or an unquoted run up to a blank, quote,
 * backslash, comma or semicolon.
 */
function replaceValues(text: string, opener: RegExp, named: (name: string) => boolean): string {
  let out = '';
  let at = 0;
  opener.lastIndex = 0;
  for (let match = opener.exec(text); match; match = opener.exec(text)) {
    const start = match.index + match[0].length;
    if (!named(match[1]!)) {
      opener.lastIndex = start;
      continue;
    }
    // A quote not closed on its line is read as no quote: the value then stops at any quote or
    // backslash, and never runs on over the end of a JSON string.
    const closed = match[2] ? closingQuote(text, start, match[2]) : -1;
    const end = closed === -1 ? unquotedEnd(text, start) : closed;
    if (closed === -1 ? isUnquotedValue(text.slice(start, end)) : end > start) {
      out += text.slice(at, start) + REDACTED;
      at = end;
    }
    opener.lastIndex = Math.max(end, start + 1);
  }
  return out + text.slice(at);
}

// What follows `secret: ` or `token = ` in code is often a type or an expression, not a value:
// `(decoded: string)`, `$TOKEN`, `<token>`, `/path`, `string[]`.
const NOT_A_VALUE =
  /^(?:null|true|false|none|undefined|string|number|boolean|bool|str|int|bytes|any|unknown|object)\W*$/i;

function isUnquotedValue(value: string): boolean {
  return value.length >= 3 && /^[A-Za-z0-9_+.~-]/.test(value) && !NOT_A_VALUE.test(value);
}

const MAX_QUOTED = 1024;

/** Where the quoted value ends, or -1 when the quote is not closed on its line (or soon). */
function closingQuote(text: string, from: number, quote: string): number {
  for (let i = from; i < Math.min(text.length, from + MAX_QUOTED); i++) {
    if (text.startsWith(quote, i)) return i;
    if (text[i] === '\n') return -1;
    // Inside a plain quote, an escaped character is part of the value; inside an escaped one (JSON
    // within JSON), a backslash starts the next escape.
    if (text[i] === '\\' && quote.length === 1) i++;
  }
  return -1;
}

const VALUE_END = /[\s"'\\,;]/g;

function unquotedEnd(text: string, from: number): number {
  VALUE_END.lastIndex = from;
  return VALUE_END.exec(text)?.index ?? text.length;
}

/** Whether base64 text decodes to `user:password` (a Basic credential) of printable characters. */
function decodesToPair(value: string): boolean {
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded);
}
