// The turn's aggregated diff for turn/diff/updated: every file apply_patch changed in the turn,
// from what it held before the turn's first change to it up to now, as one git-style diff.
import type { TurnEmitter } from '../../agent/turnEmitter';
import { shownPath, type FileWrite } from './planPatch';
import { gitFileDiff } from './unifiedDiff';

export class TurnDiff {
  private readonly baseline = new Map<string, Buffer | null>();
  private readonly latest = new Map<string, Buffer | null>();

  constructor(private readonly cwd: string) {}

  record(writes: FileWrite[]): void {
    for (const { path, before, after } of writes) {
      if (!this.baseline.has(path)) this.baseline.set(path, before);
      this.latest.set(path, after);
    }
  }

  diff(): string {
    return [...this.latest.keys()]
      .sort()
      .map((path) =>
        gitFileDiff(shownPath(this.cwd, path), text(this.baseline.get(path)), text(this.latest.get(path))),
      )
      .join('');
  }
}

const text = (bytes: Buffer | null | undefined) => (bytes ? bytes.toString('utf8') : null);

/** One set of writes as a git-style diff, in the order they were written. */
export function writesDiff(writes: FileWrite[], cwd: string): string {
  return writes
    .map(({ path, before, after }) => gitFileDiff(shownPath(cwd, path), text(before), text(after)))
    .join('');
}

/** One diff per turn, found by the turn's emitter so it lives exactly as long as the turn. */
const turnDiffs = new WeakMap<TurnEmitter, TurnDiff>();

export function turnDiffOf(emit: TurnEmitter, cwd: string): TurnDiff {
  let diff = turnDiffs.get(emit);
  if (!diff) turnDiffs.set(emit, (diff = new TurnDiff(cwd)));
  return diff;
}
