// What the thread store refuses, by kind, so the methods can answer each with its own JSON-RPC error.
export class ThreadNotFoundError extends Error {
  constructor(readonly threadId: string) {
    super(`thread not found: ${threadId}`);
  }
}

/** A request the thread's history cannot satisfy (a turn it lacks, more turns than it has, …). */
export class HistoryError extends Error {}

/** A change asked of a thread of the Codex history, which is only read. */
export class ReadOnlyThreadError extends HistoryError {
  constructor(readonly threadId: string) {
    super(
      `thread ${threadId} belongs to the Codex history, which Threadline only reads: resume or fork it to continue it here`,
    );
  }
}

/** What the system errors that stop a write mean, in words a user can act on. */
const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
  EFBIG: 'the file is too large',
};

/** A rollout (or the home holding it) that could not be written: what failed, where, and why. */
export class StoreWriteError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`cannot write ${path}: ${WRITE_FAILURES[code] ?? code} (${code})`);
  }
}

/** A StoreWriteError for a failed write of `path` when the system refused it; anything else as it was. */
export function asWriteError(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && code in WRITE_FAILURES ? new StoreWriteError(path, code) : error;
}
