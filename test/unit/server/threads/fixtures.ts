// Shared setup for the thread store's unit tests: a temp home, a logger that keeps what it was
// told, and short ways to build records and threads.
import type { Logger } from '../../../../server/log';
import type { RolloutRecord } from '../../../../server/threads/records';
import { ThreadStore, type NewThread } from '../../../../server/threads/threadStore';
import { tempDir } from '../../../support/serverProcess';

export interface RecordingLog extends Logger {
  warnings: string[];
}

export function recordingLog(): RecordingLog {
  const warnings: string[] = [];
  const ignore = () => {};
  return {
    warnings,
    warn: (m) => warnings.push(m),
    error: (m) => warnings.push(m),
    info: ignore,
    debug: ignore,
    trace: ignore,
  };
}

export const newThread = (fields: Partial<NewThread> = {}): NewThread => ({
  cwd: '/work/project',
  modelProvider: 'openai',
  model: 'gpt-5.1-codex',
  source: 'vscode',
  originator: null,
  cliVersion: '0.0.0-test',
  forkedFromId: null,
  gitInfo: null,
  ...fields,
});

/** The records of one whole turn: started, a user message, an answer, completed. */
export function turn(turnId: string, text: string, ts = Date.now()): RolloutRecord[] {
  return [
    { type: 'turn_started', ts, turnId },
    {
      type: 'item',
      ts,
      turnId,
      item: { type: 'userMessage', id: `${turnId}-u`, content: [{ type: 'text', text }] },
    },
    {
      type: 'item',
      ts: ts + 1,
      turnId,
      item: { type: 'agentMessage', id: `${turnId}-a`, text: `re: ${text}` },
    },
    { type: 'turn_completed', ts: ts + 2, turnId, status: 'completed', error: null },
  ];
}

/** A temp home per test (tempDir removes it), and every store opened in it closed afterwards. */
export function useHome(): { home: () => string; open: (log?: Logger) => Promise<ThreadStore> } {
  let home = '';
  const stores: ThreadStore[] = [];
  beforeEach(() => {
    home = tempDir('threadline-store-');
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close().catch(() => {});
  });
  return {
    home: () => home,
    open: async (log = recordingLog()) => {
      const store = await ThreadStore.open(home, log);
      stores.push(store);
      return store;
    },
  };
}
