// How a thread's status looks in the tree (its title is webview/common/threadTitle). Pure.
import type { ThreadStatus } from '../../server/protocol/thread';

export type StatusLook = 'running' | 'waiting' | 'error' | 'idle';

export function statusLook(status: ThreadStatus): StatusLook {
  if (status.type === 'systemError') return 'error';
  if (status.type !== 'active') return 'idle';
  return status.activeFlags.length > 0 ? 'waiting' : 'running';
}
