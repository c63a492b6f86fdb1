// What the in-editor suites read from the running extension's Threads tree, and a poll for live updates.
import type { ThreadNode } from '../../extension/threads/treeNodes';
import { threadlineApi } from './extensionApi';

export { until as waitFor } from '../support/until';

/** Every thread the tree shows outside Archived, in order. */
export async function shownIds(): Promise<string[]> {
  const { threads } = await threadlineApi();
  const ids: string[] = [];
  for (const node of await threads.model.children()) {
    if (node.kind !== 'group') continue;
    for (const child of await threads.model.children(node)) ids.push((child as ThreadNode).thread.id);
  }
  return ids;
}

export async function archivedIds(): Promise<string[]> {
  const { threads } = await threadlineApi();
  return (await threads.model.children(threads.model.archivedNode))
    .filter((n): n is ThreadNode => n.kind === 'thread')
    .map((n) => n.thread.id);
}
