// How a thread reads in the tree and in pickers: its name, else its first prompt, trimmed. Pure.
import type { Thread, ThreadStatus } from '../../server/protocol/thread';

const maxLabel = 80;

export function threadLabel(thread: Pick<Thread, 'name' | 'preview'>): string {
  const text = (thread.name?.trim() || thread.preview.trim() || 'New thread').replace(/\s+/g, ' ');
  return text.length > maxLabel ? `${text.slice(0, maxLabel - 1)}…` : text;
}

export type StatusLook = 'running' | 'waiting' | 'error' | 'idle';

export function statusLook(status: ThreadStatus): StatusLook {
  if (status.type === 'systemError') return 'error';
  if (status.type !== 'active') return 'idle';
  return status.activeFlags.length > 0 ? 'waiting' : 'running';
}
