// thread/list over the user's Codex history: 1,000 Codex rollouts (made from the real 0.169 ones in
// test/fixtures/codexRollouts, each with its own id, time and prompt) beside 1,000 of ours. The
// first call of a fresh server process, once with no index (both indexes built) and then with them;
// and the reference server's own first call (`codex app-server`, the binary @openai/codex ships) on
// the same Codex home, also twice (its first start builds its state database).
// Usage: npx tsx bench/codexHistory.ts [threads per home, default 1000] [runs, default 3]
//        (build first: npm run build)
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dayDir, rolloutFileName } from '../server/threads/rolloutFiles';
import { uuidv7 } from '../server/threads/uuidv7';
import { repoRoot } from '../test/support/paths';
import { writeRollout } from '../test/support/rollouts';
import { tempDir } from '../test/support/tempDirs';
import { benchServer, rpcChild } from './rpcChild';

const count = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 3);
const fixture = resolve(__dirname, '..', 'test', 'fixtures', 'codexRollouts', 'sessions');
const codexBin = resolve(repoRoot, 'node_modules', '.bin', 'codex');

/** The fixture's rollouts that stand alone (forks name their parent's lines instead of copying them). */
function templates(): string[][] {
  const files = readdirSync(fixture, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.jsonl'));
  return files
    .map((file) => readFileSync(join(fixture, file), 'utf8').trimEnd().split('\n'))
    .filter((lines) => !lines[0]!.includes('"history_base"'));
}

/** Writes `count` Codex rollouts, each a fixture thread under a new id, time and first prompt. */
function writeCodexHome(codexHome: string): void {
  const sources = templates();
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const lines = sources[i % sources.length]!;
    const ms = now - (count - i) * 60_000;
    const id = uuidv7(ms);
    const first = JSON.parse(lines[0]!) as { timestamp: string; payload: Record<string, unknown> };
    const oldId = first.payload.id as string;
    const stamp = new Date(ms).toISOString();
    first.timestamp = stamp;
    first.payload = { ...first.payload, id, session_id: id, timestamp: stamp };
    const prompt =
      /"text":"(Say hello|Run echo fixture-output|Change notes.txt to say after|Why name a thread\?|Tell me something long|Archive me afterwards)"/g;
    const text = [JSON.stringify(first), ...lines.slice(1)]
      .join('\n')
      .replaceAll(oldId, id)
      .replace(prompt, `"text":"Question ${i}: $1"`);
    const folder = join(codexHome, 'sessions', dayDir(ms));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, rolloutFileName(id, ms)), `${text}\n`);
    if (i % 10 === 0) {
      const entry = { id, thread_name: `Named ${i}`, updated_at: stamp };
      appendFileSync(join(codexHome, 'session_index.jsonl'), `${JSON.stringify(entry)}\n`);
    }
  }
}

/** Runs a server, answers how long its first thread/list took (spawn to answer, and the call alone). */
async function firstList(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const { child, call, stop } = rpcChild(command, args, env);
  await call('initialize', { clientInfo: { name: 'threadline_bench', title: 'bench', version: '1' } });
  child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
  const before = performance.now();
  // Every provider: the reference otherwise lists only the configured provider's threads.
  const answer = await call('thread/list', { limit: 50, modelProviders: [] });
  const done = performance.now();
  await stop();
  if (!answer.result) throw new Error(`thread/list failed: ${JSON.stringify(answer.error)}`);
  return { call: done - before, total: done - started, listed: (answer.result.data as unknown[]).length };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function measure(
  label: string,
  fresh: () => { command: string; args: string[]; env: NodeJS.ProcessEnv },
) {
  const cold = await firstList(fresh().command, fresh().args, fresh().env);
  const warm: { call: number; total: number }[] = [];
  for (let i = 0; i < runs; i++) warm.push(await firstList(fresh().command, fresh().args, fresh().env));
  console.log(
    `${label}: first start (no index yet) thread/list ${ms(cold.call)} (spawn to answer ${ms(cold.total)}, ${cold.listed} listed); ` +
      `later starts, median of ${runs}: thread/list ${ms(median(warm.map((w) => w.call)))} ` +
      `(spawn to answer ${ms(median(warm.map((w) => w.total)))})`,
  );
}

async function main(): Promise<void> {
  const codexHome = tempDir('threadline-bench-codex-');
  const ourHome = tempDir('threadline-bench-home-');
  writeCodexHome(codexHome);
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    writeRollout(ourHome, {
      createdAtMs: now - (count - i) * 60_000 - 30_000,
      turns: [{ id: 't1', userText: `Our question ${i}`, answer: 'An answer.' }],
    });
  }
  console.log(`${count} Codex rollouts + ${count} of ours written`);

  await measure(`Threadline, ${count} Codex + ${count} own threads`, () => ({
    command: process.execPath,
    args: [benchServer, 'app-server'],
    env: { THREADLINE_HOME: ourHome, CODEX_HOME: codexHome, THREADLINE_LOG: 'error' },
  }));
  // The reference reads the same Codex home; its own state database lands beside the rollouts.
  writeFileSync(join(codexHome, 'config.toml'), 'model_provider = "openai"\n');
  await measure(`codex app-server 0.169, the same ${count} Codex threads`, () => ({
    command: codexBin,
    args: ['app-server'],
    env: { CODEX_HOME: codexHome, RUST_LOG: 'error' },
  }));
}

void main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
