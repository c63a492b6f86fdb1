// Where a thread came from, for the tree: a thread of the user's Codex history (its rollout lives
// outside the server's own home; the server only reads it, and opening it continues it as a copy),
// or a thread another client started. Pure.
import { relative, isAbsolute } from 'node:path';
import type { Thread } from '../../server/protocol/thread';

/** Names of the clients Codex records as a thread's originator. */
const KNOWN_CLIENTS: Record<string, string> = {
  codex_cli_rs: 'Codex CLI',
  codex_tui: 'Codex CLI',
  codex_exec: 'codex exec',
  codex_vscode: 'Codex for VS Code',
  threadline_vscode: 'Threadline',
};

export interface ThreadOrigin {
  /** The thread belongs to the Codex history: read-only here. */
  codexHistory: boolean;
  /** Who started it, when that is not Threadline itself. */
  client: string | null;
}

export function threadOrigin(
  thread: Pick<Thread, 'path' | 'originator'>,
  serverHome: string | undefined,
): ThreadOrigin {
  const inside = (path: string, folder: string) => {
    const rel = relative(folder, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  const codexHistory = !!thread.path && !!serverHome && !inside(thread.path, serverHome);
  const originator = thread.originator ?? null;
  const client =
    originator && originator !== 'threadline_vscode' ? (KNOWN_CLIENTS[originator] ?? originator) : null;
  return { codexHistory, client };
}

/** A short tag for the tree's description, or null for Threadline's own threads. */
export function originTag(origin: ThreadOrigin): string | null {
  if (origin.codexHistory)
    return origin.client && origin.client !== 'Codex CLI' ? `Codex · ${origin.client}` : 'Codex';
  return origin.client;
}
