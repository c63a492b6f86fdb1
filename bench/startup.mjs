// Spawn → initialize response, beside the floor: a Node server that answers at once (floorServer.cjs),
// spawned the same way, sampled in the same rounds. For each server: a fresh home every run, a home
// reused by runs that each exit right after `initialize`, and a home a server ran in for 1.5 s (long
// enough to leave its caches); and the time from closing stdin to the process's exit, right after
// the answer (what the server does after its handshake delays it) and once the server is at rest.
// Usage: node bench/startup.mjs [runs] [server.js ...]   (build first: node esbuild.mjs --production)
// Several servers (e.g. a copy of an older dist/) are sampled interleaved, so a busy machine
// slows them alike; without any, BENCH_SERVER or dist/server.js.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 15);
const given = process.argv.slice(3);
const servers = given.length
  ? given
  : [process.env.BENCH_SERVER ?? fileURLToPath(new URL('../dist/server.js', import.meta.url))];
const floorServer = fileURLToPath(new URL('./floorServer.cjs', import.meta.url));
const initialize = JSON.stringify({
  id: 1,
  method: 'initialize',
  params: { clientInfo: { name: 'bench', version: '1' } },
});

const temps = [];
function temp() {
  const dir = mkdtempSync(join(tmpdir(), 'threadline-bench-'));
  temps.push(dir);
  return dir;
}
process.on('exit', () => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * CPU time the process has had so far, all its threads (Linux only, else NaN): a busy machine
 * delays a start more than it makes it work more, so this compares builds better there.
 */
function cpuMs(pid) {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    const ns = tasks.map((task) =>
      Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]),
    );
    return ns.reduce((a, b) => a + b, 0) / 1e6;
  } catch {
    return NaN;
  }
}

/** One start: ms to the initialize answer, then ms from closing stdin to exit (after `keepAliveMs`). */
function start(script, home, keepAliveMs = 0) {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, [script, 'app-server'], {
      env: { ...process.env, THREADLINE_HOME: home },
    });
    child.on('error', reject);
    child.stdout.once('data', (chunk) => {
      const answered = performance.now() - began;
      const cpu = cpuMs(child.pid);
      if (!String(chunk).includes('"userAgent"')) reject(new Error(`unexpected answer: ${chunk}`));
      setTimeout(() => {
        const closed = performance.now();
        child.once('exit', () => resolve({ answered, cpu, exited: performance.now() - closed }));
        child.stdin.end();
      }, keepAliveMs);
    });
    child.stdin.write(initialize + '\n');
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const homes = {
  fresh: () => join(temp(), 'home'), // one the server creates itself, inside a folder removed after
  reused: (server) => server.reusedHome,
  cached: (server) => server.cachedHome,
};

const entries = servers.map((script) => ({
  script,
  reusedHome: join(temp(), 'home'),
  cachedHome: join(temp(), 'home'),
  samples: { fresh: [], reused: [], cached: [], exit: [], idleExit: [] },
  cpu: { fresh: [], reused: [], cached: [] },
}));
/** How long a server runs before its input ends, for the exit time of a server at rest. */
const IDLE_MS = 500;
const floor = { answered: [], cpu: [], exited: [], idleExited: [] };

// The first start of a build may write caches beside it; the reused home's previous run exits at once.
for (const entry of entries) {
  await start(entry.script, homes.fresh());
  await start(entry.script, entry.reusedHome);
  await start(entry.script, entry.cachedHome, 1500);
}
await start(floorServer, homes.fresh());

for (let round = 0; round < runs; round++) {
  const base = await start(floorServer, homes.fresh());
  floor.answered.push(base.answered);
  floor.cpu.push(base.cpu);
  floor.exited.push(base.exited);
  floor.idleExited.push((await start(floorServer, homes.fresh(), IDLE_MS)).exited);
  for (const entry of entries) {
    entry.samples.idleExit.push((await start(entry.script, entry.reusedHome, IDLE_MS)).exited);
    for (const kind of ['fresh', 'reused', 'cached']) {
      const { answered, cpu, exited } = await start(entry.script, homes[kind](entry));
      entry.samples[kind].push(answered);
      entry.cpu[kind].push(cpu);
      entry.samples.exit.push(exited);
    }
  }
}

const floorMs = median(floor.answered);
const floorCpu = median(floor.cpu);
const fmt = (ms) => `${ms.toFixed(1).padStart(6)} ms`;
console.log(
  `floor (floorServer.cjs)   answers ${fmt(floorMs)} (CPU ${fmt(floorCpu)})   exits on EOF ${fmt(median(floor.exited))} right after it,` +
    ` ${fmt(median(floor.idleExited))} ${IDLE_MS} ms later`,
);
for (const entry of entries) {
  console.log(entry.script);
  for (const [kind, label] of [
    ['fresh', 'fresh home'],
    ['reused', 'reused home'],
    ['cached', 'home with the cache'],
  ]) {
    const m = median(entry.samples[kind]);
    const over = `+${(m - floorMs).toFixed(1)} ms over the floor`;
    const cpu = `CPU +${(median(entry.cpu[kind]) - floorCpu).toFixed(1)} ms`;
    console.log(`  ${label.padEnd(22)} ${fmt(m)}   ${over.padEnd(26)} (target ≤ +15)   ${cpu}`);
  }
  console.log(
    `  ${'exit on stdin EOF'.padEnd(22)} ${fmt(median(entry.samples.exit))} right after initialize`,
  );
  console.log(`  ${''.padEnd(22)} ${fmt(median(entry.samples.idleExit))} ${IDLE_MS} ms after it`);
}
console.log(`median of ${runs} runs; load average ${loadavg()[0].toFixed(1)}`);
