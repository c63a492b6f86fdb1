// Whether node_modules holds what package-lock.json asks for, judged by the packages on disk rather than by
// file times or npm's own record (node_modules/.package-lock.json, which any npm command run against a
// shared node_modules rewrites): a checkout that rewrote the lock without changing it costs nothing, a
// changed or missing package is never missed. Node built-ins only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** null when node_modules matches the lock; else the first package that differs, as a sentence. */
export function lockfileDrift(repo) {
  const lock = readJson(join(repo, 'package-lock.json'));
  if (!lock?.packages) return 'package-lock.json is missing or unreadable';
  for (const [path, entry] of Object.entries(lock.packages)) {
    // The project itself, and links (workspaces) whose folder is the project's own.
    if (path === '' || entry.link) continue;
    const installed = readJson(join(repo, path, 'package.json'));
    if (!installed) {
      // Optional packages for other platforms (esbuild's, say) are never installed.
      if (entry.optional) continue;
      return `${path} is not installed`;
    }
    if (installed.version !== entry.version) {
      return `${path} is ${installed.version}, the lock wants ${entry.version}`;
    }
  }
  return null;
}
