// What the index keeps per thread: enough to list and filter without opening its rollout.
import { toSeconds, userMessageText, type History, type RolloutRecord, type ThreadMeta } from './records';

export interface ThreadSummary extends ThreadMeta {
  updatedAt: number;
  name: string | null;
  preview: string;
  archived: boolean;
  /** The rollout's path relative to the home directory. */
  path: string;
}

const PREVIEW_CHARS = 240;

export function previewOf(text: string | null): string {
  if (!text) return '';
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > PREVIEW_CHARS ? `${oneLine.slice(0, PREVIEW_CHARS - 1)}…` : oneLine;
}

export function summarize(history: History, path: string, archived: boolean): ThreadSummary {
  return {
    ...history.meta,
    updatedAt: history.updatedAt,
    name: history.name,
    preview: previewOf(history.firstUserText),
    archived,
    path,
  };
}

/** A summary after appending records: later update time, new name, first user text as preview. */
export function withRecords(summary: ThreadSummary, records: RolloutRecord[]): ThreadSummary {
  const next = { ...summary };
  for (const record of records) {
    next.updatedAt = Math.max(next.updatedAt, toSeconds(record.ts));
    if (record.type === 'name_set') next.name = record.name;
    if (record.type === 'git_info_set') next.gitInfo = record.gitInfo;
    if (record.type === 'item' && !next.preview) next.preview = previewOf(userMessageText(record.item));
  }
  return next;
}
