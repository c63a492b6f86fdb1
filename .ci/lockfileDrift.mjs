// Whether node_modules holds what package-lock.json asks for, judged by npm's own record of what it
// installed (node_modules/.package-lock.json) rather than by file times: a checkout that rewrote the lock
// without changing it costs nothing, a changed version is never missed. Node built-ins only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function packages(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).packages ?? {};
  } catch {
    return null;
  }
}

/** null when node_modules matches the lock; else the first package that differs, as a sentence. */
export function lockfileDrift(repo) {
  const wanted = packages(join(repo, 'package-lock.json'));
  if (!wanted) return 'package-lock.json is missing or unreadable';
  const installed = packages(join(repo, 'node_modules', '.package-lock.json'));
  if (!installed) return 'nothing is installed yet';
  for (const [path, entry] of Object.entries(wanted)) {
    if (path === '') continue; // the project itself
    const have = installed[path];
    // Optional packages for other platforms (esbuild's, say) are never installed.
    if (!have) {
      if (entry.optional) continue;
      return `${path} is not installed`;
    }
    if (have.version !== entry.version || (entry.integrity && have.integrity !== entry.integrity)) {
      return `${path} is ${have.version}, the lock wants ${entry.version}`;
    }
  }
  return null;
}
