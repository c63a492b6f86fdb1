// The Threads tree's nodes, and where its threads come from: the shapes the tree model, its provider,
// its commands and drag and drop share.
import type { ParamsOf, ResultOf } from '../../server/protocol/methods';
import type { Thread } from '../../server/protocol/thread';
import type { ThreadSection } from '../../server/protocol/threadSectionMethods';
import type { RecencyGroup } from './recency';

export interface ThreadSource {
  list(params: ParamsOf<'thread/list'>): Promise<ResultOf<'thread/list'>>;
  read(threadId: string): Promise<Thread>;
  /** Every thread section (threadSection/list); without it the tree shows no folders. */
  sections?(): Promise<ThreadSection[]>;
}

export type SectionId = 'active' | 'archived';
export type GroupNode = { kind: 'group'; group: RecencyGroup; label: string };
export type ThreadNode = { kind: 'thread'; thread: Thread; archived: boolean };
export type LoadMoreNode = { kind: 'loadMore'; section: SectionId };
export type ArchivedNode = { kind: 'archived' };
/** A thread section: its listed threads sit here instead of in a recency group. */
export type FolderNode = { kind: 'folder'; section: ThreadSection };
export type TreeNode = GroupNode | ThreadNode | LoadMoreNode | ArchivedNode | FolderNode;

/** The sources the tree lists: interactive clients and other app-server clients. */
export const listedSources: ParamsOf<'thread/list'>['sourceKinds'] = ['cli', 'vscode', 'appServer'];
