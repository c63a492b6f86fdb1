// "Search Threads": a Quick Pick that asks the server (`searchTerm`) as the user types. Threadline's
// server searches everything said in every thread and ranks the results, each with the line that
// matched (shown as its description) and the turn it is in (opened scrolled there); with another
// server, VS Code's own fuzzy matching ranks names and previews among what came back.
import * as vscode from 'vscode';
import type { Thread } from '../../server/protocol/thread';
import type { ThreadlineServer } from '../server/threadlineServer';
import { relativeTime } from './recency';
import { threadTitle } from '../../webview/common/threadTitle';
import { listedSources } from './treeNodes';

interface ThreadPick extends vscode.QuickPickItem {
  threadId: string;
  turnId?: string;
}

/** The thread picked, and the turn that matched the search when the server said. */
export interface PickedThread {
  threadId: string;
  turnId?: string;
}

const debounceMs = 150;

export function searchThreads(server: ThreadlineServer): Promise<PickedThread | undefined> {
  const pick = vscode.window.createQuickPick<ThreadPick>();
  pick.title = 'Search Threads';
  pick.placeholder = 'Type to search names, prompts and messages of every thread';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const found = new Map<string, Thread>();
  let asked = 0;
  let timer: NodeJS.Timeout | undefined;

  const query = async (term: string) => {
    const mine = ++asked;
    pick.busy = true;
    try {
      const { data } = await server.request('thread/list', {
        limit: 50,
        sortKey: 'updated_at',
        sourceKinds: listedSources,
        ...(term ? { searchTerm: term } : {}),
      });
      if (mine !== asked) return;
      const now = new Date();
      if (term && data.some((thread) => thread.searchMatch)) {
        // The server's ranking, each with what matched: kept as it is, not filtered again here.
        pick.items = data.map((thread) => ({
          threadId: thread.id,
          turnId: thread.searchMatch?.turnId ?? undefined,
          label: threadTitle(thread),
          description: thread.searchMatch?.snippet,
          detail: `${relativeTime(thread.updatedAt, now)} · ${thread.cwd}`,
          alwaysShow: true,
        }));
        return;
      }
      for (const thread of data) found.set(thread.id, thread);
      // Everything found so far stays listed so the fuzzy filter can still rank it while the user types.
      pick.items = [...found.values()]
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .map((thread) => ({
          threadId: thread.id,
          label: threadTitle(thread),
          description: relativeTime(thread.updatedAt, now),
          detail: thread.name ? thread.preview.trim().slice(0, 200) : thread.cwd,
        }));
    } catch (error) {
      pick.placeholder = `Search failed: ${(error as Error).message}`;
    } finally {
      if (mine === asked) pick.busy = false;
    }
  };

  return new Promise((resolve) => {
    pick.onDidChangeValue((value) => {
      clearTimeout(timer);
      timer = setTimeout(() => void query(value.trim()), debounceMs);
    });
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0];
      resolve(chosen && { threadId: chosen.threadId, turnId: chosen.turnId });
      pick.hide();
    });
    pick.onDidHide(() => {
      clearTimeout(timer);
      resolve(undefined);
      pick.dispose();
    });
    pick.show();
    void query('');
  });
}
