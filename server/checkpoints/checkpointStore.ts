// Every thread's checkpoints under $THREADLINE_HOME/checkpoints/<thread>/: one JSON record per turn
// that changed files (turns/<turn>.json), the contents they refer to (blobs/<sha256>), and while a
// revert runs, its journal. Removed with the thread. Commands cannot reach any of it: the home is
// hidden from them.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { writeFileAtomic } from '../tools/applyPatch/atomicFile';
import { BlobStore } from './blobStore';
import type { ContentCache } from './commandCapture';
import { finishInterruptedRevert } from './revertFiles';
import { emptyRecord, parseRecord, type TurnRecord } from './turnRecord';

// Thread and turn ids are UUIDs; anything else must never become a path.
const ID = /^[0-9A-Za-z-]{1,64}$/;

export class CheckpointStore {
  readonly root: string;
  /** Per thread, what the last command snapshot stored, so unchanged files are not read again. */
  private readonly caches = new Map<string, ContentCache>();

  constructor(
    home: string,
    private readonly log: Logger,
  ) {
    this.root = join(home, 'checkpoints');
  }

  dirOf(threadId: string): string {
    if (!ID.test(threadId)) throw new Error(`not a thread id: ${threadId}`);
    return join(this.root, threadId);
  }

  blobs(threadId: string): BlobStore {
    return new BlobStore(join(this.dirOf(threadId), 'blobs'));
  }

  cacheOf(threadId: string): ContentCache {
    let cache = this.caches.get(threadId);
    if (!cache) this.caches.set(threadId, (cache = new Map()));
    return cache;
  }

  private recordPath(threadId: string, turnId: string): string {
    if (!ID.test(turnId)) throw new Error(`not a turn id: ${turnId}`);
    return join(this.dirOf(threadId), 'turns', `${turnId}.json`);
  }

  /** The turn's record; an empty one when the turn changed no file. */
  async read(threadId: string, turnId: string): Promise<TurnRecord> {
    const text = await fs
      .readFile(this.recordPath(threadId, turnId), 'utf8')
      .catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
    return text === null ? emptyRecord() : parseRecord(text);
  }

  async write(threadId: string, turnId: string, record: TurnRecord): Promise<void> {
    const path = this.recordPath(threadId, turnId);
    await fs.mkdir(join(this.dirOf(threadId), 'turns'), { recursive: true, mode: 0o700 });
    await writeFileAtomic(path, Buffer.from(JSON.stringify(record)), 0o600);
  }

  /**
   * Once a turn ends: forgets the command cache (the next turn looks afresh) and removes stored
   * contents that no turn's record refers to.
   */
  async sweep(threadId: string): Promise<void> {
    this.caches.delete(threadId);
    const turns = join(this.dirOf(threadId), 'turns');
    const keep = new Set<string>();
    for (const name of await fs.readdir(turns).catch(() => [] as string[])) {
      if (!name.endsWith('.json')) continue;
      const record = parseRecord(await fs.readFile(join(turns, name), 'utf8'));
      for (const file of record.files)
        for (const state of [file.before, file.after]) if (state) keep.add(state.hash);
    }
    await this.blobs(threadId).sweep(keep);
  }

  async removeThread(threadId: string): Promise<void> {
    this.caches.delete(threadId);
    await fs.rm(this.dirOf(threadId), { recursive: true, force: true });
  }

  /**
   * Runs once at start: finishes the reverts a crash interrupted, and removes the checkpoints of
   * threads that are gone (deleted while the server was not running, or ephemeral ones).
   */
  async recover(exists: (threadId: string) => boolean): Promise<void> {
    const threads = await fs.readdir(this.root).catch(() => [] as string[]);
    for (const threadId of threads.filter((id) => ID.test(id))) {
      if (!exists(threadId)) {
        await this.removeThread(threadId).catch(() => {});
        continue;
      }
      try {
        const finished = await finishInterruptedRevert(this.dirOf(threadId), this.blobs(threadId));
        if (finished.length)
          this.log.info(`thread ${threadId}: finished an interrupted revert of ${finished.length} file(s)`);
      } catch (error) {
        this.log.error(
          `thread ${threadId}: cannot finish an interrupted revert: ${(error as Error).message}`,
        );
      }
    }
  }
}
