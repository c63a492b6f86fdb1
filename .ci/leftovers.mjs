// What the suites of one `npm test` left in the temp folder the run gave them. Every test helper makes its
// folders there (test/support/tempDirs.ts), and nothing else does, so anything still there is a leftover.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

function size(path) {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return { bytes: stat.size, files: 1 };
  let bytes = 0;
  let files = 0;
  for (const name of readdirSync(path)) {
    const inner = size(join(path, name));
    bytes += inner.bytes;
    files += inner.files;
  }
  return { bytes, files };
}

/** The entries left in `dir`, each with its size; empty when the suites cleaned up after themselves. */
export function leftovers(dir) {
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, ...size(join(dir, name)) }));
}

/** A failure message that names each leftover, so the suite that made it can be found by its prefix. */
export function leftoverReport(entries, dir) {
  const lines = entries.map(({ name, bytes, files }) => `  ${name} (${count(files, 'file')}, ${kib(bytes)})`);
  return [
    `${count(entries.length, 'temp entry', 'temp entries')} left in ${dir} by the suites:`,
    ...lines,
    'Make them with tempDir() from test/support/tempDirs.ts (removed after each test) or remove them in after().',
  ].join('\n');
}

function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

// `node .ci/leftovers.mjs DIR`: the same check on its own, exit code 1 when anything is left.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  const entries = leftovers(dir);
  if (entries.length) {
    console.error(leftoverReport(entries, dir));
    process.exit(1);
  }
  console.log(`nothing left in ${dir}`);
}
