// Lets `npm test` and `npm start` work on a fresh clone: runs `npm ci` when node_modules is missing or
// older than package-lock.json. Uses only Node built-ins, since it runs before anything is installed.
import { statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

const installed = mtime('node_modules/.package-lock.json');
if (installed < 0 || installed < mtime('package-lock.json')) {
  console.log('Installing dependencies (npm ci)…');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
