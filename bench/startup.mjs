// Spawn → initialize response, beside the floor of any Node program (`node -e 0` to exit).
// Usage: node bench/startup.mjs [runs]   (build first: npm run build)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const runs = Number(process.argv[2] ?? 20);
const server = process.env.BENCH_SERVER ?? new URL('../dist/server.js', import.meta.url).pathname;
const initialize = JSON.stringify({
  id: 1,
  method: 'initialize',
  params: { clientInfo: { name: 'bench', version: '1' } },
});

function floor() {
  return new Promise((resolve) => {
    const start = performance.now();
    spawn(process.execPath, ['-e', '0']).on('exit', () => resolve(performance.now() - start));
  });
}

function toInitialize(home, keepAliveMs = 0) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [server, 'app-server'], {
      env: { ...process.env, THREADLINE_HOME: home },
    });
    child.stdout.once('data', (chunk) => {
      const elapsed = performance.now() - start;
      if (!String(chunk).includes('"userAgent"')) reject(new Error(`unexpected answer: ${chunk}`));
      setTimeout(() => {
        child.kill();
        child.once('exit', () => resolve(elapsed));
      }, keepAliveMs);
    });
    child.on('error', reject);
    child.stdin.write(initialize + '\n');
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(label, once) {
  const samples = [];
  await once(); // warm the file cache
  for (let i = 0; i < runs; i++) samples.push(await once());
  const m = median(samples);
  console.log(
    `${label.padEnd(44)} median ${m.toFixed(1).padStart(6)} ms  min ${Math.min(...samples).toFixed(1)} ms`,
  );
  return m;
}

// An existing home is one a server has already run in (long enough to leave its caches behind).
const existing = mkdtempSync(join(tmpdir(), 'threadline-bench-home-'));
process.on('exit', () => rmSync(existing, { recursive: true, force: true }));
await toInitialize(existing, 1500);
const base = await measure('node -e 0 (floor)', floor);
const warm = await measure('spawn → initialize, existing home', () => toInitialize(existing));
const fresh = await measure('spawn → initialize, fresh home', () => {
  // A home the server has to create itself, inside a folder removed with it.
  const parent = mkdtempSync(join(tmpdir(), 'threadline-bench-'));
  return toInitialize(join(parent, 'home')).finally(() => rmSync(parent, { recursive: true, force: true }));
});
console.log(
  `over the floor: existing home +${(warm - base).toFixed(1)} ms (target ≤ 20), fresh home +${(fresh - base).toFixed(1)} ms (target ≤ 40)`,
);
