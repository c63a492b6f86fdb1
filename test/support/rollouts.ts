// Writes rollout files straight into a home directory, in the store's own record format, so tests
// can set up histories (many threads, long threads, broken files) without a model.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RolloutRecord, ThreadMeta } from '../../server/threads/records';
import { dayDir, rolloutFileName } from '../../server/threads/rolloutFiles';
import { uuidv7 } from '../../server/threads/uuidv7';
import { serverPath } from './underWine';

export interface FixtureTurn {
  id: string;
  userText: string;
  answer?: string;
  completed?: boolean;
}

export interface FixtureThread {
  createdAtMs?: number;
  cwd?: string;
  source?: ThreadMeta['source'];
  modelProvider?: string;
  name?: string;
  turns?: FixtureTurn[];
}

export function turnRecords(turn: FixtureTurn, ts: number): RolloutRecord[] {
  const records: RolloutRecord[] = [
    { type: 'turn_started', ts, turnId: turn.id },
    {
      type: 'item',
      ts,
      turnId: turn.id,
      item: { type: 'userMessage', id: `${turn.id}-u`, content: [{ type: 'text', text: turn.userText }] },
    },
  ];
  if (turn.answer !== undefined) {
    records.push({
      type: 'item',
      ts: ts + 1,
      turnId: turn.id,
      item: { type: 'agentMessage', id: `${turn.id}-a`, text: turn.answer },
    });
  }
  if (turn.completed !== false)
    records.push({ type: 'turn_completed', ts: ts + 2, turnId: turn.id, status: 'completed', error: null });
  return records;
}

/** Writes one thread's rollout and returns its id and path. */
export function writeRollout(home: string, thread: FixtureThread = {}): { id: string; path: string } {
  const createdAtMs = thread.createdAtMs ?? Date.now();
  const id = uuidv7(createdAtMs);
  const meta: ThreadMeta = {
    id,
    createdAt: Math.floor(createdAtMs / 1000),
    cwd: serverPath(thread.cwd ?? '/work/project'),
    modelProvider: thread.modelProvider ?? 'openai',
    model: 'gpt-5.1-codex',
    source: thread.source ?? 'vscode',
    originator: null,
    cliVersion: '0.0.0-test',
    forkedFromId: null,
    gitInfo: null,
  };
  const records: RolloutRecord[] = [{ type: 'session_meta', ts: createdAtMs, meta }];
  if (thread.name) records.push({ type: 'name_set', ts: createdAtMs, name: thread.name });
  (thread.turns ?? []).forEach((turn, i) => records.push(...turnRecords(turn, createdAtMs + 10 * (i + 1))));
  const dir = join(home, 'sessions', dayDir(createdAtMs));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, rolloutFileName(id, createdAtMs));
  writeFileSync(path, records.map((r) => JSON.stringify(r) + '\n').join(''));
  return { id, path };
}
