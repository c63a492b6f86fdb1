// Git metadata for a thread's cwd, read from the .git directory directly: spawning git would cost
// more than the rest of thread/start together.
import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { GitInfo } from '../protocol/thread';

async function findGitDir(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, '.git');
    const info = await fs.stat(candidate).catch(() => undefined);
    if (info?.isDirectory()) return candidate;
    if (info?.isFile()) {
      // A worktree or submodule: .git is a file that points at the real directory.
      const pointer = /^gitdir:\s*(.+)$/m.exec(await fs.readFile(candidate, 'utf8'));
      if (pointer) return resolve(dir, pointer[1]!.trim());
    }
    if (dirname(dir) === dir) return undefined;
  }
}

async function readRef(gitDir: string, ref: string): Promise<string | null> {
  const loose = await fs.readFile(join(gitDir, ref), 'utf8').catch(() => undefined);
  if (loose) return loose.trim();
  const packed = await fs.readFile(join(gitDir, 'packed-refs'), 'utf8').catch(() => '');
  const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
  return line ? line.split(' ')[0]! : null;
}

export async function readGitInfo(cwd: string): Promise<GitInfo | null> {
  const gitDir = await findGitDir(cwd);
  if (!gitDir) return null;
  const head = (await fs.readFile(join(gitDir, 'HEAD'), 'utf8').catch(() => '')).trim();
  const symbolic = /^ref:\s*(.+)$/.exec(head);
  const branch = symbolic ? symbolic[1]!.replace(/^refs\/heads\//, '') : null;
  // A linked worktree's folder holds its HEAD; refs and config are in the common folder it names.
  const common = (await fs.readFile(join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim();
  const shared = common ? resolve(gitDir, common) : gitDir;
  const sha = symbolic ? await readRef(shared, symbolic[1]!) : head || null;
  const config = await fs.readFile(join(shared, 'config'), 'utf8').catch(() => '');
  const origin = /\[remote "origin"\][^[]*?url\s*=\s*(\S+)/.exec(config);
  return { sha, branch, originUrl: origin ? origin[1]! : null };
}
