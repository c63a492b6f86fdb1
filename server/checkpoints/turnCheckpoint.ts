// The checkpoint of one running turn: tools report what they are about to change, and the turn's
// record (server/checkpoints/turnRecord.ts) grows as the changes land. Records are written one at
// a time, in the order the changes happened.
import { promises as fs } from 'node:fs';
import type { PatchWrite, TurnCheckpoint } from '../agent/tool';
import type { Logger } from '../log';
import type { SandboxPolicy } from '../protocol/enums';
import { isWithin } from '../fs/pathRules';
import { writableRootPaths } from '../sandbox/writableRoots';
import type { CheckpointStore } from './checkpointStore';
import { CommandCapture } from './commandCapture';
import { addChange, type FileRecord, type FileState, type TurnRecord } from './turnRecord';

export class TurnCheckpointWriter implements TurnCheckpoint {
  private stored: Promise<TurnRecord> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: CheckpointStore,
    private readonly threadId: string,
    private readonly turnId: string,
    private readonly log: Logger,
  ) {}

  async beforePatch(writes: PatchWrite[]): Promise<() => Promise<void>> {
    const blobs = this.store.blobs(this.threadId);
    try {
      const befores = await Promise.all(
        writes.map(async ({ target, before }) =>
          before === null ? null : { hash: await blobs.put(before), mode: await modeOf(target) },
        ),
      );
      return async () => {
        const changes: FileRecord[] = [];
        for (const [i, write] of writes.entries()) {
          const after: FileState | null =
            write.after === null
              ? null
              : { hash: await blobs.put(write.after), mode: await modeOf(write.target) };
          changes.push({ path: write.path, target: write.target, before: befores[i]!, after });
        }
        await this.record(changes, []);
      };
    } catch (error) {
      return () => this.failed('a patch', error);
    }
  }

  async beforeCommand(cwd: string, policy: SandboxPolicy | null): Promise<(label: string) => Promise<void>> {
    // A command confined read-only changes nothing.
    if (policy?.type === 'readOnly') return async () => {};
    try {
      const roots = await commandRoots(cwd, policy);
      const capture = await CommandCapture.start(
        this.store.blobs(this.threadId),
        this.store.cacheOf(this.threadId),
        roots,
      );
      return async (label) => {
        try {
          const { changes, notes } = await capture.finish(label);
          await this.record(changes, notes);
        } catch (error) {
          await this.failed(label, error);
        }
      };
    } catch (error) {
      return (label) => this.failed(label, error);
    }
  }

  /** Adds changes made by other means (a revert) and notes to the turn's record. */
  record(changes: FileRecord[], notes: string[]): Promise<void> {
    if (changes.length === 0 && notes.length === 0) return Promise.resolve();
    const done = this.queue.then(async () => {
      const record = await (this.stored ??= this.store.read(this.threadId, this.turnId));
      for (const change of changes) addChange(record, change);
      record.notes.push(...notes);
      await this.store.write(this.threadId, this.turnId, record);
    });
    this.queue = done.catch((error: Error) =>
      this.log.error(`turn ${this.turnId}: cannot record its checkpoint: ${error.message}`),
    );
    return this.queue.then(() => undefined);
  }

  private failed(what: string, error: unknown): Promise<void> {
    this.log.error(
      `turn ${this.turnId}: the changes of ${what} were not recorded: ${(error as Error).message}`,
    );
    return this.record(
      [],
      [
        `${what}: its changes could not be recorded (${(error as Error).message}); they cannot be undone here.`,
      ],
    );
  }
}

async function modeOf(target: string): Promise<number> {
  return ((await fs.lstat(target).catch(() => null))?.mode ?? 0o644) & 0o7777;
}

/**
 * Where a command may change files: the writable roots of its policy (not $TMPDIR: scratch space
 * nobody wants put back), or only the thread's folder when it runs unconfined.
 */
async function commandRoots(cwd: string, policy: SandboxPolicy | null): Promise<string[]> {
  const real = await fs.realpath(cwd);
  if (policy?.type !== 'workspaceWrite') return [real];
  const roots = await writableRootPaths({ ...policy, excludeTmpdirEnvVar: true }, cwd, {});
  // Nested roots are walked once, under their parent.
  return roots.filter((root, i) => !roots.slice(0, i).some((parent) => isWithin(parent, root)));
}
