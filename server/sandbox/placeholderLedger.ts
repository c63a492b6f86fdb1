// The placeholders a server holds, written down in its home (which commands cannot see), so that
// those a killed server left on the disk are removed by the next one: empty folders named `.git`
// or `.vscode` that nobody asked for would otherwise stay in the user's workspace for good.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { resolveHome } from '../config/home';
import { isAlive } from '../fs/lockFile';

const folder = () => join(resolveHome(process.env), 'sandbox-placeholders');
const ownFile = () => join(folder(), `${process.pid}@${hostname()}.json`);

/**
 * Writes down the placeholders this server holds now (sync: a few short paths, and a crash right
 * after making one must find it listed). Without a home, nothing is written.
 */
export function recordHeld(paths: string[]): void {
  try {
    if (paths.length === 0) {
      rmSync(ownFile(), { force: true });
      return;
    }
    // Not recursive: a server without a home has no one to clean up after it.
    if (!existsSync(folder())) mkdirSync(folder(), { mode: 0o700 });
    writeFileSync(ownFile(), JSON.stringify(paths), { mode: 0o600 });
  } catch {
    // A home that cannot be written loses only the cleanup after a crash.
  }
}

/**
 * Removes the placeholders of servers on this machine that died holding them (rmdir: only while
 * still empty), except those this server holds itself.
 */
export function sweepLeftovers(heldHere: (path: string) => boolean): void {
  let files: string[];
  try {
    files = readdirSync(folder());
  } catch {
    return;
  }
  for (const file of files) {
    const [pid, host] = file.replace(/\.json$/, '').split('@');
    if (host !== hostname() || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    try {
      const paths = JSON.parse(readFileSync(join(folder(), file), 'utf8')) as unknown;
      for (const path of Array.isArray(paths) ? paths : []) {
        if (typeof path !== 'string' || heldHere(path)) continue;
        try {
          rmdirSync(path);
        } catch {
          // Gone already, or something was put in it since: it is no longer ours to remove.
        }
      }
      rmSync(join(folder(), file), { force: true });
    } catch {
      // Half-written by a dying server: try again at the next start.
    }
  }
}
