// How a thread's status reads, wherever it is shown (the Threads tree's row, the conversation's header):
// one function over the same two inputs — the server's thread status (thread/status/changed) and
// whether the client holds a prompt of the thread (its status may not say so yet) — so the two places
// cannot tell different stories. Pure.
import type { ThreadStatus } from '../../server/protocol/thread';

export type StatusLook = 'running' | 'waiting' | 'error' | 'idle';

export function statusLook(status: ThreadStatus, hasPrompt = false): StatusLook {
  if (hasPrompt) return 'waiting';
  if (status.type === 'systemError') return 'error';
  if (status.type !== 'active') return 'idle';
  return status.activeFlags.length > 0 ? 'waiting' : 'running';
}

/** The words for each look ('' for idle: nothing to say). */
export const statusText: Record<StatusLook, string> = {
  running: 'running',
  waiting: 'waiting for your approval',
  error: 'error',
  idle: '',
};
