// Turns stored summaries and histories into the protocol's Thread and Turn objects.
import { resolve } from 'node:path';
import type { Thread, ThreadStatus, Turn, TurnItemsView } from '../protocol/thread';
import type { ThreadSummary } from '../threads/summary';

export function toThread(
  home: string,
  summary: ThreadSummary,
  status: ThreadStatus,
  turns: Turn[] = [],
  ephemeral = false,
): Thread {
  return {
    id: summary.id,
    sessionId: summary.id,
    preview: summary.preview,
    name: summary.name,
    cwd: summary.cwd,
    modelProvider: summary.modelProvider,
    model: summary.model,
    createdAt: summary.createdAt,
    updatedAt: summary.updatedAt,
    status,
    ephemeral,
    source: summary.source,
    turns,
    cliVersion: summary.cliVersion,
    projectId: null,
    forkedFromId: summary.forkedFromId,
    gitInfo: summary.gitInfo,
    // Threads of the Codex history carry their absolute path; ours, one relative to our home.
    path: summary.path ? resolve(home, summary.path) : null,
    originator: summary.originator,
  };
}

/**
 * A turn still marked in progress in a thread that is not running was cut off (the server stopped
 * mid-turn); report it as interrupted rather than leave clients waiting for it.
 */
export function settleOrphanedTurns(turns: Turn[], running: boolean): Turn[] {
  if (running) return turns;
  return turns.map((turn) =>
    turn.status === 'inProgress'
      ? {
          ...turn,
          status: 'interrupted',
          error: {
            message: 'The server stopped before this turn finished.',
            codexErrorInfo: null,
            additionalDetails: null,
          },
        }
      : turn,
  );
}

/** Applies a turns view: full items, a display summary (user input and final answer), or none. */
export function viewTurn(turn: Turn, view: TurnItemsView): Turn {
  if (view === 'full') return { ...turn, itemsView: 'full' };
  if (view === 'notLoaded') return { ...turn, items: [], itemsView: 'notLoaded' };
  const lastAnswer = turn.items.filter((i) => i.type === 'agentMessage').pop();
  const items = turn.items.filter((i) => i.type === 'userMessage' || i === lastAnswer);
  return { ...turn, items, itemsView: 'summary' };
}
