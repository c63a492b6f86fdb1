// Threads, turns and notifications for the webview's tests, shaped as the protocol types say.
import type { ThreadItem } from '../../../server/protocol/items';
import type { Thread, Turn } from '../../../server/protocol/thread';
import type { HostMessage, ProtocolNotification, ThreadSnapshot } from '../../../webview/messages';

export const threadId = 'thr_1';

export function thread(): Omit<Thread, 'turns'> {
  return {
    id: threadId,
    sessionId: threadId,
    preview: 'hello',
    name: null,
    cwd: '/work/demo',
    modelProvider: 'openai',
    model: 'gpt-test',
    createdAt: 1_700_000_000,
    updatedAt: 1_700_000_000,
    status: { type: 'idle' },
    ephemeral: false,
    source: 'vscode',
    cliVersion: '0.1.0',
    projectId: null,
    forkedFromId: null,
    gitInfo: null,
    path: null,
  };
}

export function turn(id: string, items: ThreadItem[] = [], status: Turn['status'] = 'completed'): Turn {
  return { id, items, status, error: null, startedAt: 1_700_000_000, completedAt: null, durationMs: null };
}

export function snapshot(turns: Turn[] = [], hasOlderTurns = false): ThreadSnapshot {
  return {
    thread: thread(),
    turns,
    hasOlderTurns,
    settings: {
      model: 'gpt-test',
      modelProvider: 'openai',
      reasoningEffort: 'medium',
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
    },
  };
}

export function userMessage(id: string, text: string): ThreadItem {
  return { type: 'userMessage', id, content: [{ type: 'text', text }] };
}

export function agentMessage(id: string, text: string): ThreadItem {
  return { type: 'agentMessage', id, text };
}

/**
 * A notification for the fixture thread (its threadId filled in). Loosely typed on purpose: past the
 * host's check, items of a newer protocol's types still arrive, and the tests send those too.
 */
export function n(method: string, params: Record<string, unknown>): ProtocolNotification {
  return { method, params: { threadId, ...params } } as ProtocolNotification;
}

/** Numbered deltas from `first` on, as the host posts them. */
export function deltas(first: number, notifications: ProtocolNotification[]): HostMessage[] {
  return notifications.map((notification, i) => ({ type: 'delta', threadId, seq: first + i, notification }));
}
