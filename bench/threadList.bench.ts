// The thread store on its own, with 10,000 stored threads: open + first list() page in a process
// that just started, warm list(), RSS once indexed, the index rebuild when its file is gone, and
// recovery after an unclean stop, each beside a baseline measured in the same run.
// (bench/threadList.ts measures thread/list through the server over stdio.)
// Usage: npx tsx bench/threadList.bench.ts [threads, default 10000] [runs, default 5]
//
// The store is bundled (esbuild) and run in fresh plain `node` processes, so no TypeScript loader
// adds its own time or memory to the figures.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ListOptions } from '../server/threads/listing';

const mib = (bytes: number) => bytes / 1024 / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const firstPage: ListOptions = { limit: 50, sourceKinds: ['cli', 'vscode'] };

interface ChildOptions {
  home: string;
  idleMs?: number;
  /** A thread renamed behind the store's back: report when the rename shows up. */
  watch?: { id: string; name: string };
}

interface ChildReport {
  /** From the process's start (performance.timeOrigin) to the first page in hand. */
  sinceStartMs: number;
  rssBeforeMiB: number;
  openMs: number;
  firstListMs: number;
  warmListMs: number;
  filteredListMs: number;
  afterChangeListMs: number;
  rssMiB: number;
  idleRssMiB: number;
  heapMiB: number;
  closeMs: number;
  visibleAfterMs: number | null;
}

/** In the child: open the store, list, and report what it cost. */
async function child({ home, idleMs = 0, watch }: ChildOptions): Promise<void> {
  const { ThreadStore } = await import('../server/threads/threadStore');
  const quiet = () => {};
  const log = { error: quiet, warn: quiet, info: quiet, debug: quiet, trace: quiet };
  const rssBeforeMiB = mib(process.memoryUsage().rss);
  const start = performance.now();
  const store = await ThreadStore.open(home, log);
  const openMs = performance.now() - start;
  store.list(firstPage);
  const sinceStartMs = performance.now();
  const firstListMs = sinceStartMs - start - openMs;
  let visibleAfterMs: number | null = null;
  if (watch) {
    while (store.get(watch.id)?.name !== watch.name) await new Promise((resolve) => setTimeout(resolve, 5));
    visibleAfterMs = performance.now() - start;
  }
  const timed = (options: ListOptions, runs = 50) =>
    median(
      Array.from({ length: runs }, () => {
        const t = performance.now();
        store.list(options);
        return performance.now() - t;
      }),
    );
  const warmListMs = timed(firstPage);
  const filteredListMs = timed({ ...firstPage, cwd: ['/work/project-3'], searchTerm: 'parser' });
  const rssMiB = mib(process.memoryUsage().rss);
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const idleRssMiB = mib(process.memoryUsage().rss);
  const heapMiB = mib(process.memoryUsage().heapUsed);
  // A change moves one thread in the updated_at order; the next list must not re-sort everything.
  const [stalest] = store.list({ ...firstPage, sortKey: 'updated_at', sortDirection: 'asc', limit: 1 }).data;
  await store.setName(stalest!.id, 'renamed');
  const afterChangeListMs = timed({ ...firstPage, sortKey: 'updated_at' }, 1);
  const closing = performance.now();
  await store.close();
  const closeMs = performance.now() - closing;
  const report: ChildReport = {
    sinceStartMs,
    rssBeforeMiB,
    openMs,
    firstListMs,
    warmListMs,
    filteredListMs,
    afterChangeListMs,
    rssMiB,
    idleRssMiB,
    heapMiB,
    closeMs,
    visibleAfterMs,
  };
  process.stdout.write(JSON.stringify(report));
}

function runChild(bundle: string, options: ChildOptions): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [bundle, '--child', JSON.stringify(options)]);
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.stderr.pipe(process.stderr);
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (code !== 0) reject(new Error(`child exited with ${code}`));
      else resolve(JSON.parse(out) as ChildReport);
    });
  });
}

function nodeFloorMs(): number {
  const start = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return performance.now() - start;
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 10_000);
  const runs = Number(process.argv[3] ?? 5);
  const { build } = await import('esbuild');
  const { tempDir } = await import('../test/support/serverProcess');
  const { writeRollout } = await import('../test/support/rollouts');
  const { SNAPSHOT } = await import('../server/threads/indexFiles');

  const work = tempDir('threadline-bench-store-');
  const home = join(work, 'home');
  const bundle = join(work, 'bench.js');
  await build({
    entryPoints: [__filename],
    bundle: true,
    platform: 'node',
    outfile: bundle,
    external: ['esbuild'],
    logLevel: 'error',
  });

  const writing = performance.now();
  const now = Date.now();
  let oldest = { id: '', path: '' };
  for (let i = 0; i < count; i++) {
    const written = writeRollout(home, {
      createdAtMs: now - (count - i) * 60_000,
      cwd: `/work/project-${i % 20}`,
      turns: [{ id: 't1', userText: `Question number ${i} about the parser`, answer: 'An answer.' }],
    });
    if (i === 0) oldest = written;
  }
  console.log(`${count} threads: rollouts written in ${((performance.now() - writing) / 1000).toFixed(1)} s`);

  const rebuild = await runChild(bundle, { home });
  const fresh: ChildReport[] = [];
  for (let i = 0; i < runs; i++) fresh.push(await runChild(bundle, { home, idleMs: i === 0 ? 10_000 : 0 }));
  const floor = median(Array.from({ length: runs }, nodeFloorMs));
  const pick = (field: Exclude<keyof ChildReport, 'visibleAfterMs'>) => median(fresh.map((r) => r[field]));
  const idle = fresh[0]!;

  // After a crash the snapshot is not marked clean, and a rollout may have grown unannounced.
  // The oldest thread is the last one the background check reaches.
  const snapshot = JSON.parse(readFileSync(join(home, SNAPSHOT), 'utf8')) as { clean: boolean };
  writeFileSync(join(home, SNAPSHOT), JSON.stringify({ ...snapshot, clean: false }));
  const watch = { id: oldest.id, name: 'unannounced' };
  appendFileSync(oldest.path, JSON.stringify({ type: 'name_set', ts: Date.now(), ...watch }) + '\n');
  const unclean = await runChild(bundle, { home, watch });

  const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
  const rows: [string, string, string?][] = [
    ['baseline: node -e 0, spawn to exit', ms(floor), `median of ${runs} (fresh processes below: the same)`],
    ['baseline: RSS of that node before opening', `${pick('rssBeforeMiB').toFixed(1)} MiB`],
    [
      'process start to first page in hand',
      ms(pick('sinceStartMs')),
      'node bootstrap + bundle + open + list',
    ],
    ['open + first list() in a fresh process', ms(pick('openMs') + pick('firstListMs')), 'target ≤ 50 ms'],
    ['  of which open (load index, check folders)', ms(pick('openMs'))],
    ['warm list(), first page of 50', ms(pick('warmListMs')), 'target ≤ 10 ms'],
    ['warm list(), cwd + searchTerm filter', ms(pick('filteredListMs'))],
    ['list() by updated_at right after a change', ms(pick('afterChangeListMs'))],
    ['RSS after indexing, right after listing', `${pick('rssMiB').toFixed(1)} MiB`, 'target ≤ 60 MiB'],
    [
      'RSS after indexing, 10 s idle',
      `${idle.idleRssMiB.toFixed(1)} MiB`,
      `heap used ${idle.heapMiB.toFixed(1)} MiB`,
    ],
    ['close(), writing a clean snapshot', ms(pick('closeMs'))],
    ['index rebuild: open with no index file', ms(rebuild.openMs), `${count} rollouts read`],
    ['  RSS after the rebuild', `${rebuild.rssMiB.toFixed(1)} MiB`],
    [
      'open after an unclean stop, + first list()',
      ms(unclean.openMs + unclean.firstListMs),
      'then every rollout is stat-ed',
    ],
    [
      '  an unannounced append shows up after',
      ms(unclean.visibleAfterMs!),
      'the background check reached it',
    ],
  ];
  for (const [label, value, note = ''] of rows)
    console.log(`${label.padEnd(44)} ${value.padStart(10)}   ${note}`);
  rmSync(work, { recursive: true, force: true });
}

if (process.argv[2] === '--child') void child(JSON.parse(process.argv[3]!) as ChildOptions);
else void main();
