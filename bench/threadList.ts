// thread/list with 10,000 stored threads: the first call in a process that just started, then warm,
// and the server's RSS after indexing; also the index rebuild when its file is gone.
// Usage: npx tsx bench/threadList.ts [threads, default 10000]   (build first: npm run build)
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { writeRollout } from '../test/support/rollouts';
import { tempDir } from '../test/support/serverProcess';
import { benchServer, rpcChild, rssMiB } from './rpcChild';

const count = Number(process.argv[2] ?? 10_000);
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

async function session(home: string) {
  const server = rpcChild(process.execPath, [...nodeFlags, benchServer, 'app-server'], {
    THREADLINE_HOME: home,
    THREADLINE_LOG: 'error',
  });
  await server.call('initialize', { clientInfo: { name: 'threadline_vscode', version: '1' } });
  return server;
}

async function main(): Promise<void> {
  const home = tempDir('threadline-bench-list-');
  const start = performance.now();
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    writeRollout(home, {
      createdAtMs: now - (count - i) * 60_000,
      cwd: `/work/project-${i % 20}`,
      turns: [{ id: 't1', userText: `Question number ${i} about the parser`, answer: 'An answer.' }],
    });
  }
  console.log(`wrote ${count} rollouts in ${((performance.now() - start) / 1000).toFixed(1)} s`);

  const firstPage = { limit: 50, sortKey: 'updated_at' };
  // The first process indexes the rollouts (no index yet): the rebuild.
  const builder = await session(home);
  const rebuild = await builder.timed('thread/list', firstPage);
  console.log(`index rebuild from ${count} rollouts (first thread/list, no index): ${rebuild.toFixed(1)} ms`);
  await builder.stop();

  const { timed, child, stop } = await session(home);
  const first = await timed('thread/list', firstPage);
  const warm: number[] = [];
  for (let i = 0; i < 50; i++) warm.push(await timed('thread/list', firstPage));
  warm.sort((a, b) => a - b);
  const listedRss = rssMiB(child.pid!);
  // V8's memory reducer hands unused heap back once a process idles; the reference's figure
  // (about 113 MiB) is an idle one too.
  const idle = () => new Promise((r) => setTimeout(r, Number(process.env.BENCH_IDLE_MS ?? 8000)));
  await idle();
  const idleRss = rssMiB(child.pid!);
  const searched = { ...firstPage, cwd: ['/work/project-3'], searchTerm: 'parser' };
  // The first search loads (or builds) the full-text index; the ones after it are what typing costs.
  const firstSearch = await timed('thread/list', searched);
  const filtered = await timed('thread/list', searched);
  // The index stays loaded while searches may follow (a minute; bench/threadSearch.ts measures its drop).
  await idle();
  const searchRss = rssMiB(child.pid!);
  await stop();
  console.log(`thread/list first call in a fresh process: ${first.toFixed(1)} ms   (target ≤ 50)`);
  console.log(
    `thread/list warm, median of 50:           ${warm[25]!.toFixed(2)} ms   (target ≤ 10)   p90 ${warm[45]!.toFixed(2)} ms`,
  );
  console.log(
    `thread/list with cwd + search filter: first ${firstSearch.toFixed(1)} ms (builds the full-text index), warm ${filtered.toFixed(2)} ms`,
  );
  console.log(`server RSS right after the listing:        ${listedRss.toFixed(1)} MiB`);
  console.log(`server RSS idle, ${count} threads indexed: ${idleRss.toFixed(1)} MiB   (target ≤ 60)`);
  console.log(`server RSS idle, full-text index loaded:   ${searchRss.toFixed(1)} MiB`);
  const bare = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 1000)']);
  await new Promise((r) => setTimeout(r, 300));
  console.log(`baseline: RSS of an idle node process:     ${rssMiB(bare.pid!).toFixed(1)} MiB`);
  bare.kill();
  rmSync(home, { recursive: true, force: true });
}

void main();
