// A lock shared by every process on this machine: the lock file exists while one of them holds it.
// Several servers (one per VS Code window) use one home, and a read–modify–write of a shared file
// by two of them at once would lose one change.
import { hostname } from 'node:os';
import { promises as fs } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export class LockTimeoutError extends Error {}

export interface LockOptions {
  /** Give up after this long (ms). */
  timeoutMs?: number;
  /** A lock held this long is taken to be left over from a process that hung or died elsewhere. */
  staleMs?: number;
}

/** Runs `task` while holding the lock file `path`, and removes it after. */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  { timeoutMs = 10_000, staleMs = 30_000 }: LockOptions = {},
): Promise<T> {
  const owner = `${process.pid}@${hostname()}`;
  const deadline = Date.now() + timeoutMs;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    if (await tryCreate(path, owner)) break;
    if (await isStale(path, staleMs)) {
      // Only the holder's death or a stale age lets it go; both are checked anew on each pass.
      await fs.rm(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new LockTimeoutError(`timed out waiting for the lock ${path}`);
    await sleep(wait * (0.5 + Math.random()));
  }
  try {
    return await task();
  } finally {
    await fs.rm(path, { force: true });
  }
}

async function tryCreate(path: string, owner: string): Promise<boolean> {
  try {
    await fs.writeFile(path, owner, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function isStale(path: string, staleMs: number): Promise<boolean> {
  try {
    const [text, stat] = await Promise.all([fs.readFile(path, 'utf8'), fs.stat(path)]);
    if (Date.now() - stat.mtimeMs > staleMs) return true;
    const [pid, host] = text.split('@');
    return host === hostname() && Number(pid) > 0 && !isAlive(Number(pid));
  } catch {
    // Gone between our attempts (released), or half-written by its creator: not stale, try again.
    return false;
  }
}

/** Whether a process with this id runs on this machine (one we may not signal counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
