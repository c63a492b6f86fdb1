// How an editor tab shows its thread's state: the same rule as the Threads tree (a prompt the client
// holds means "waiting", whatever the status says yet), a short word before the title and an icon.
// Pure: the panel layer applies what this answers.
import type { ThreadStatus } from '../../server/protocol/thread';
import { statusLook, type StatusLook } from '../threads/threadLabels';

export function tabLook(status: ThreadStatus | undefined, hasPrompt: boolean): StatusLook {
  if (hasPrompt) return 'waiting';
  return status ? statusLook(status) : 'idle';
}

const prefix: Record<StatusLook, string> = {
  running: 'Running · ',
  waiting: 'Waiting · ',
  error: 'Error · ',
  idle: '',
};

/** The tab's title: the thread's, after the state in a word a screen reader says too. */
export function tabTitle(title: string, look: StatusLook): string {
  return `${prefix[look]}${title}`;
}

/** The tab's icon under media/tab/: a colored one for a state, the product's mark (per theme) at rest. */
export function tabIcon(look: StatusLook): { light: string; dark: string } {
  if (look === 'idle') return { light: 'idle-light.svg', dark: 'idle-dark.svg' };
  return { light: `${look}.svg`, dark: `${look}.svg` };
}
