// Which recency group a thread falls in, by its last update in the user's local time. Pure.

export const recencyGroups = [
  { id: 'today', label: 'Today' },
  { id: 'yesterday', label: 'Yesterday' },
  { id: 'week', label: 'Previous 7 Days' },
  { id: 'older', label: 'Older' },
] as const;

export type RecencyGroup = (typeof recencyGroups)[number]['id'];

const dayMs = 24 * 60 * 60 * 1000;

/** `updatedAt` in Unix seconds, as the protocol sends it. */
export function recencyOf(updatedAt: number, now: Date): RecencyGroup {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const at = updatedAt * 1000;
  if (at >= midnight) return 'today';
  if (at >= midnight - dayMs) return 'yesterday';
  if (at >= midnight - 7 * dayMs) return 'week';
  return 'older';
}

/** "5 min ago", "3 h ago", "2 days ago", then the date: the tree's description of a thread. */
export function relativeTime(updatedAt: number, now: Date): string {
  const seconds = Math.max(0, Math.round(now.getTime() / 1000 - updatedAt));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  if (days < 7) return days === 1 ? 'yesterday' : `${days} days ago`;
  return new Date(updatedAt * 1000).toLocaleDateString();
}
