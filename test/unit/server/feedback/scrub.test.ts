// The feedback scrubber on each secret shape it knows, in plain text and as a rollout writes it
// (inside a JSON string, newlines and quotes escaped: the line must still parse), on secrets it
// knows by value (wrapped across lines, base64 encoded), on random-looking keys, and on ordinary
// text it must leave alone (commit hashes, ids, paths, token counts).
import { strict as assert } from 'node:assert';
import { REDACTED, scrubber } from '../../../../server/feedback/scrub';

// Fake secrets of each shape, built here so no scanner takes the file for a leak.
const mixed = (n: number) => 'aB3dE6gH9kL2mN5pQ8rS1tU4vW7xY0z'.repeat(4).slice(0, n);
const PEM_BODY = Array.from({ length: 4 }, (_, i) => `MIIE${mixed(60)}${i}`).join('\n');
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`;
const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${mixed(43)}`;

/** [what, text holding the secret, the secret] */
const SHAPES: [string, string, string][] = [
  ['a PEM private key', `key:\n${PEM}\nthat was it`, PEM_BODY.split('\n')[1]!],
  [
    'an OpenSSH private key',
    `-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn${mixed(64)}\n-----END OPENSSH PRIVATE KEY-----`,
    `b3Blbn${mixed(64)}`,
  ],
  [
    'a PEM block cut off before its end',
    `-----BEGIN EC PRIVATE KEY-----\nMHcC${mixed(60)}`,
    `MHcC${mixed(60)}`,
  ],
  ['a JWT', `token ${JWT} sent`, JWT],
  ['an AWS access key id', `id AKIA${'IOSFODNN7EXAMPLE'} here`, 'AKIAIOSFODNN7EXAMPLE'],
  ['an AWS temporary key id', 'ASIA' + 'Y34FZKBOKMUTVV7A', 'ASIAY34FZKBOKMUTVV7A'],
  [
    'an AWS secret assignment',
    `aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY${'EXAMPLEKEY'}`,
    'wJalrXUtnFEMI/K7MDENG',
  ],
  ['a Google API key', `key=AIza${mixed(35)}&q=x`, `AIza${mixed(35)}`],
  ['a Slack bot token', `xoxb-${'1234567890'}-${mixed(24)}`, mixed(24)],
  ['a Slack user token', `xoxp-${'1234567890'}-${mixed(24)}`, mixed(24)],
  ['a GitHub classic token', `ghp_${mixed(36)}`, `ghp_${mixed(36)}`],
  ['a GitHub OAuth token', `gho_${mixed(36)}`, `gho_${mixed(36)}`],
  ['a GitHub server token', `ghs_${mixed(36)}`, `ghs_${mixed(36)}`],
  ['a GitHub fine-grained token', `github_pat_11AB${mixed(20)}_${mixed(40)}`, mixed(40)],
  ['a GitLab token', `glpat-${mixed(20)}`, `glpat-${mixed(20)}`],
  ['a Stripe live key', `sk_live_${mixed(24)}`, `sk_live_${mixed(24)}`],
  ['an OpenAI key', `sk-${mixed(48)}`, mixed(48)],
  ['an OpenAI project key', `sk-proj-${mixed(48)}`, mixed(48)],
  ['an Anthropic key', `sk-ant-api03-${mixed(60)}`, mixed(60)],
  ['an npm token', `//registry.npmjs.org/:_authToken=npm_${mixed(36)}`, `npm_${mixed(36)}`],
  ['an env token', 'GITHUB_TOKEN=plainvalue123', 'plainvalue123'],
  ['an env secret', 'export MY_CLIENT_SECRET_VALUE="two words"', 'two words'],
  ['an INI password', '[db]\npassword = hunter2hunter2\nhost = x', 'hunter2hunter2'],
  ['a TOML token', 'api_token = "tomlsecret99"', 'tomlsecret99'],
  ['a YAML password', 'db:\n  password: yamlsecret77\n', 'yamlsecret77'],
  ['a JSON secret', '{"client_secret": "jsonsecret55", "x": 1}', 'jsonsecret55'],
  ['a value whose quote is never closed', "echo password='opensecret1 and more", 'opensecret1'],
  ['an API key header', 'X-Api-Key: headerkey4242', 'headerkey4242'],
  ['a Basic header', 'Authorization: Basic dXNlcjpodW50ZXIyaHVudGVy', 'dXNlcjpodW50ZXIyaHVudGVy'],
  ['a Basic credential alone', 'curl -H "Basic dXNlcjpodW50ZXIyaHVudGVy"', 'dXNlcjpodW50ZXIyaHVudGVy'],
  ['a Bearer header', 'Authorization: Bearer opaque.token-value_1', 'opaque.token-value_1'],
  ['a Bearer token alone', 'sent Bearer abcdefgh12345678', 'abcdefgh12345678'],
  ['a JSON Authorization', '{"Authorization": "Token abcd1234efgh"}', 'abcd1234efgh'],
  ['a URL with a password', 'git clone https://me:s3cretpass@example.com/r.git', 's3cretpass'],
  ['a database URL', 'postgres://app:dbpass9876@db:5432/x', 'dbpass9876'],
  // 30 random bytes, drawn once: the heuristic misses about 1 in 100 such keys (a shape rule or an
  // assignment catches most of those), so a fresh draw would make the test flaky.
  ['a random key', 'key GY1hQUtBtWAHFtkYrJjImZ0UrcA/Hujw4JUQndE/ used', 'GY1hQUtBtWAHFtkYrJjImZ0UrcA'],
  [
    'base64 of an assignment',
    `data: ${Buffer.from('password=hunter2hunter2').toString('base64')}`,
    'hunter2hunter2',
  ],
  ['base64 of a token', Buffer.from(`{"token":"ghp_${mixed(36)}"}`).toString('base64'), 'ghp_'],
];

const scrub = scrubber([]);
/** The text, and the secret, as a rollout line holds them: inside a JSON string. */
const asJson = (text: string) => JSON.stringify({ type: 'message', text });

describe('the feedback scrubber', () => {
  for (const [what, text, secret] of SHAPES) {
    it(`removes ${what}, in plain text and inside a JSON line`, () => {
      const out = scrub(text);
      assert.ok(out.includes(REDACTED), `nothing removed from ${JSON.stringify(text)}: ${out}`);
      const check = secret;
      const decoded = (s: string) => (what.startsWith('base64') ? Buffer.from(s, 'base64').toString() : s);
      assert.ok(!out.includes(check) && !decoded(out).includes(check), `${what} kept: ${out}`);
      const line = scrub(asJson(text));
      const parsed = JSON.parse(line) as { text: string };
      assert.ok(parsed.text.includes(REDACTED), `nothing removed inside JSON: ${line}`);
      assert.ok(!line.includes(check), `${what} kept inside JSON: ${line}`);
    });
  }

  it('keeps the names beside the values it removes', () => {
    assert.equal(scrub('GITHUB_TOKEN=plainvalue123'), `GITHUB_TOKEN=${REDACTED}`);
    assert.equal(scrub('{"client_secret": "jsonsecret55"}'), `{"client_secret": "${REDACTED}"}`);
    assert.equal(scrub('https://me:s3cretpass@example.com'), `https://me:${REDACTED}@example.com`);
    assert.equal(scrub('Authorization: Bearer abcdefgh12345678'), `Authorization: Bearer ${REDACTED}`);
  });

  it('removes a known secret as written, wrapped across lines, and base64 encoded', () => {
    const secret = 'sk-stored-feedback-key-0123456789';
    const known = scrubber([secret]);
    const wrapped = `${secret.slice(0, 12)}\n  ${secret.slice(12)}`;
    assert.ok(!known(`key ${secret}.`).includes('0123456789'));
    assert.ok(!known(wrapped).includes('0123456789'), 'a wrapped line');
    assert.ok(!known(asJson(wrapped)).includes('0123456789'), 'wrapped, inside JSON');
    const opaque = 'Opaque-Value-Without-Shape';
    const byValue = scrubber([opaque]);
    for (const prefix of ['', 'a', 'ab']) {
      const encoded = Buffer.from(`${prefix}${opaque}!`).toString('base64');
      const out = byValue(`blob ${encoded} end`);
      assert.ok(out.includes(REDACTED), `base64 at alignment ${prefix.length} kept: ${out}`);
    }
  });

  it('leaves ordinary text alone: hashes, ids, paths, identifiers, token counts', () => {
    const ordinary = [
      'commit 4e494fc0a1b2c3d4e5f60718293a4b5c6d7e8f90 (sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08)',
      'thread 019aa2b4-6c1e-7d3f-8a9b-0c1d2e3f4a5b, call call_Ab3dEf6hIj9kLm2nOp5qRs8t, response resp_68af0e1c2d3b4a59',
      'see server/feedback/secretShapes.ts and https://github.com/openai/codex/blob/main/codex-rs/core/src/lib.rs',
      'MyComponentName2Handler useState2024ReactHookForm ThisIsAVeryLongCamelCaseIdentifierWithNumber1',
      '{"total_tokens": 12345, "input_tokens": 42, "max_output_tokens": 4096, "PWD": "/home/u"}',
      'node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm at 2026-11-27T01:15:00.000Z',
      'The password field is checked; a token of thanks. password: null, token = true',
      'bearer_token_env_var = "MY_TOKEN"',
      'function scrubber(secrets: string[]) { const holdsSecret = (decoded: string) => x; }',
      'password=$DB_PASSWORD; send `Authorization: Bearer <token>`; secret_file=/etc/app/key',
      '"integrity": "sha512-0j9zwiQdkvr90LoiiBDUh7kae1lsNW2EqeE0vGceYne4BrmMDdDVoQ4KGOieUee0zWZbVJKsf/06JY8U5i63Xg=="',
    ];
    for (const text of ordinary) assert.equal(scrub(text), text);
  });
});
