// Records a thread owes its rollout: written when they happened they would have failed (a turn's end
// on a full disk), so they go first in the thread's next append, and reads show them meanwhile: the
// rollout must not show a failed turn as still running once there is room again.
import type { RolloutRecord } from './records';

export class OwedRecords {
  private readonly owed = new Map<string, RolloutRecord[]>();

  owe(id: string, records: RolloutRecord[]): void {
    this.owed.set(id, [...(this.owed.get(id) ?? []), ...records]);
  }

  /** What the next append writes: the owed records, then `records`. Settle once written. */
  before(id: string, records: RolloutRecord[]): RolloutRecord[] {
    const owed = this.owed.get(id);
    return owed ? [...owed, ...records] : records;
  }

  /** What a read shows: the records on disk, then the owed ones (they are already true). */
  after(id: string, records: RolloutRecord[]): RolloutRecord[] {
    const owed = this.owed.get(id);
    return owed ? [...records, ...owed] : records;
  }

  /** Written, or the thread is gone. */
  settle(id: string): void {
    this.owed.delete(id);
  }
}
