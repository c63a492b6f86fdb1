// Full-text search (thread/list searchTerm) over 10,000 threads of realistic length, through the
// server over stdio: the server's idle RSS before any search (today's figure), the first search
// (index built from the rollouts), warm queries, RSS with the index in memory, RSS once the idle
// server has dropped it (a minute after the last search), and the first search after a restart
// (the saved index, no rollout read).
// Usage: npx tsx bench/threadSearch.ts [threads, default 10000]   (build first: npm run build)
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeRollout, type FixtureTurn } from '../test/support/rollouts';
import { tempDir } from '../test/support/serverProcess';
import { benchServer, rpcChild, rssMiB } from './rpcChild';

const count = Number(process.argv[2] ?? 10_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A fixed pseudo-random corpus: everyday words, code words and identifiers, so the index has the
// vocabulary size of real conversations about code (many rare terms), not a handful of words.
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
const COMMON =
  'the a to of and in is it that for on with this be as not you are or at from by but have an can we if will should then also just so now when what which there here some more only'.split(
    ' ',
  );
const CODE =
  'file function test error fix add update change code line run build use need make check return value type name new config server client request response parser index cache thread turn module import export class method handler query schema cursor token stream buffer'.split(
    ' ',
  );
const IDENTIFIERS = Array.from({ length: 20_000 }, () => {
  const parts = 1 + Math.floor(random() * 3);
  return Array.from({ length: parts }, () => pick(CODE)).join('') + Math.floor(random() * 100);
});
const word = () => {
  const r = random();
  return r < 0.5
    ? pick(COMMON)
    : r < 0.85
      ? pick(CODE)
      : IDENTIFIERS[Math.floor(random() ** 2 * IDENTIFIERS.length)]!;
};
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

function thread(i: number): FixtureTurn[] {
  const turns = 2 + Math.floor(random() * 10);
  return Array.from({ length: turns }, (_, t) => ({
    id: `t${t}`,
    userText: sentence(10 + Math.floor(random() * 30)),
    answer: `${sentence(40 + Math.floor(random() * 160))}\n\nRan \`npm test -- ${pick(IDENTIFIERS)}\` (${i}).`,
  }));
}

async function session(home: string) {
  const server = rpcChild(process.execPath, [benchServer, 'app-server'], {
    THREADLINE_HOME: home,
    THREADLINE_LOG: 'error',
  });
  await server.call('initialize', {
    clientInfo: { name: 'threadline_vscode', version: '1' },
    capabilities: { experimentalApi: true },
  });
  return server;
}

async function main(): Promise<void> {
  const home = tempDir('threadline-bench-search-');
  const started = performance.now();
  const now = Date.now();
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const { path } = writeRollout(home, {
      createdAtMs: now - (count - i) * 60_000,
      cwd: `/work/project-${i % 20}`,
      turns: thread(i),
    });
    bytes += statSync(path).size;
  }
  console.log(
    `wrote ${count} rollouts (${(bytes / 2 ** 20).toFixed(0)} MiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const server = await session(home);
  await server.timed('thread/list', { limit: 50 });
  await sleep(8000);
  const idleBefore = rssMiB(server.child.pid!);
  const query = (term: string, limit = 25) => server.timed('thread/list', { searchTerm: term, limit });
  const build = await query('parser cache');
  const loadedRss = rssMiB(server.child.pid!);
  const terms = Array.from({ length: 30 }, (_, i) =>
    i % 3 === 0 ? `${pick(CODE)} ${pick(CODE)}` : pick(IDENTIFIERS),
  );
  const warm: number[] = [];
  for (const term of terms) warm.push(await query(term));
  // As the tree asks while the user types: a word's growing prefix.
  const typing: number[] = [];
  for (const prefix of ['ha', 'han', 'hand', 'handl', 'handle']) typing.push(await query(prefix));
  warm.sort((a, b) => a - b);
  console.log(`first search, index built from the rollouts: ${build.toFixed(0)} ms`);
  console.log(
    `warm search (25 results with snippets), median of ${warm.length}: ${warm[warm.length >> 1]!.toFixed(1)} ms   (target ≤ 30)   p90 ${warm[Math.floor(warm.length * 0.9)]!.toFixed(1)} ms`,
  );
  console.log(`typing a word, one query per key: ${typing.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  console.log(`server RSS idle before any search:          ${idleBefore.toFixed(1)} MiB`);
  console.log(`server RSS with the index in memory:        ${loadedRss.toFixed(1)} MiB`);
  // The index is dropped a minute after the last search.
  await sleep(75_000);
  const idleAfter = rssMiB(server.child.pid!);
  console.log(
    `server RSS idle after searching (dropped):  ${idleAfter.toFixed(1)} MiB   (target ≤ ${(idleBefore + 20).toFixed(1)}: idle + 20)`,
  );
  await server.stop();
  console.log(`saved index: ${(statSync(join(home, 'search-index')).size / 2 ** 20).toFixed(1)} MiB`);

  const again = await session(home);
  const reload = await again.timed('thread/list', { searchTerm: 'parser cache', limit: 25 });
  console.log(`first search after a restart (saved index):  ${reload.toFixed(0)} ms`);
  await again.stop();
  rmSync(home, { recursive: true, force: true });
}

void main();
