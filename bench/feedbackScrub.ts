// The feedback scrubber's cost on the texts a bundle holds (a rollout is up to 16 MiB of JSON lines;
// extra log files as large), on inputs built to make its patterns backtrack, and how often the
// entropy heuristic misses a random key by length (the shape rules catch most of those).
// Usage: npx tsx bench/feedbackScrub.ts
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { scrubber } from '../server/feedback/scrub';
import { looksRandom } from '../server/feedback/secretEntropy';
import { repoRoot } from '../test/support/paths';

const scrub = scrubber(['sk-stored-feedback-key-0123456789', 'env-token-value-abcdefgh']);
// The project's own prose: the README and the documents it links (the README alone is a short listing).
const readme = ['README.md', ...readdirSync(join(repoRoot, 'docs')).map((file) => `docs/${file}`)]
  .map((file) => readFileSync(join(repoRoot, file), 'utf8'))
  .join('\n');
const rolloutLine = (i: number) =>
  `${JSON.stringify({ timestamp: new Date(0).toISOString(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `${readme.slice((i * 997) % 30_000, ((i * 997) % 30_000) + 400)} call_${i} total_tokens: ${i}` }] } })}\n`;

const cases: [string, string][] = [
  ['8 MiB of rollout lines', Array.from({ length: 14_000 }, (_, i) => rolloutLine(i)).join('')],
  ['8 MiB of README and docs prose', readme.repeat(Math.ceil(8e6 / readme.length)).slice(0, 8e6)],
  ['4 MiB base64 image', `data:image/png;base64,${randomBytes(3_000_000).toString('base64')}`],
  ['4 MiB hex', randomBytes(2_000_000).toString('hex')],
  ['2 MiB one name run, then =', `${'a_'.repeat(1_000_000)}=`],
  ['a PEM header, 2 MiB, no end', `-----BEGIN RSA PRIVATE KEY-----${'A'.repeat(2_000_000)}`],
  ['500k short assignments', 'a: b, token="x\n'.repeat(500_000)],
];
for (const [name, text] of cases) {
  const start = performance.now();
  scrub(text);
  const ms = performance.now() - start;
  console.log(
    `${name.padEnd(32)} ${(text.length / 1048576).toFixed(1).padStart(5)} MiB  ${ms.toFixed(0).padStart(5)} ms`,
  );
}
for (const bytes of [18, 24, 30, 48]) {
  let missed = 0;
  for (let i = 0; i < 10_000; i++) if (!looksRandom(randomBytes(bytes).toString('base64'))) missed++;
  console.log(`random base64 key of ${(bytes * 4) / 3} chars: missed ${(missed / 100).toFixed(1)}%`);
}
