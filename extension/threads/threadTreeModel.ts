// The Threads tree as data, without VS Code: the user's sections (folders) first, then the workspace's
// (or every) other thread grouped by recency, paged with "Load more…", an Archived node with its own
// paging, and live updates applied in place so the view keeps its selection and expansion. Tested in
// Node against the real server.
import type { ParamsOf } from '../../server/protocol/methods';
import {
  routeNotification,
  type NotificationHandlers,
  type ServerNotification,
} from '../../server/protocol/notificationRoutes';
import type { Thread } from '../../server/protocol/thread';
import { Emitter } from '../../webview/common/emitter';
import { retitled } from '../../webview/common/threadTitle';
import { recencyGroups, recencyOf, type RecencyGroup } from './recency';
import {
  listedSources,
  type ArchivedNode,
  type FolderNode,
  type GroupNode,
  type LoadMoreNode,
  type SectionId,
  type ThreadNode,
  type ThreadSource,
  type TreeNode,
} from './treeNodes';

interface Section {
  threads: ThreadNode[];
  cursor: string | null;
  loaded: boolean;
  loading?: Promise<void>;
  readonly more: LoadMoreNode;
}

export interface ThreadTreeOptions {
  /** Workspace folders to list, or undefined for every workspace. */
  scope: () => string[] | undefined;
  pageSize?: number;
  now?: () => Date;
}

/** How many recently started threads the tree remembers for listings that lag behind them. */
const maxAnnounced = 20;

export class ThreadTreeModel {
  readonly archivedNode: ArchivedNode = { kind: 'archived' };
  private readonly groups = new Map<RecencyGroup, GroupNode>(
    recencyGroups.map(({ id, label }) => [id, { kind: 'group', group: id, label }]),
  );
  private active = this.section('active');
  private archived = this.section('archived');
  private readonly nodes = new Map<string, ThreadNode>();
  /** The sections by id, in the server's order; loaded with the first page. */
  private folders = new Map<string, FolderNode>();
  private foldersLoading: Promise<void> | undefined;
  private readonly changed = new Emitter<TreeNode[] | undefined>();
  /** `undefined`: the whole tree changed; otherwise these nodes (and their children). */
  readonly onDidChange = this.changed.event;
  private readonly pageSize: number;
  private readonly now: () => Date;
  /** Whether anything is archived, asked only when nothing is active (else the node is always shown). */
  private anyArchived = false;
  /** Why the last listing failed, for the view's error state. */
  error: string | undefined;
  /**
   * Notifications that arrive while the first page is on its way, applied once it is there: the server
   * answers requests concurrently, so a thread started meanwhile may be missing from the page and its
   * thread/started would otherwise be dropped (the tree said "No threads yet" with the thread open).
   */
  private early: ServerNotification[] | undefined;
  /**
   * Threads started through this server lately, newest last: listed with the first page even when the
   * listing does not have them yet (codex lists a thread only once its first turn is written).
   */
  private readonly announced = new Map<string, Thread>();

  constructor(
    private readonly source: ThreadSource,
    private readonly options: ThreadTreeOptions,
  ) {
    this.pageSize = options.pageSize ?? 50;
    this.now = options.now ?? (() => new Date());
  }

  async children(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.rootChildren();
    if (node.kind === 'group')
      return this.active.threads.filter((t) => !this.folderOf(t) && this.groupOf(t) === node.group);
    if (node.kind === 'folder') return this.active.threads.filter((t) => this.folderOf(t) === node);
    if (node.kind === 'archived') {
      await this.ensureLoaded(this.archived);
      return [...this.archived.threads, ...(this.archived.cursor ? [this.archived.more] : [])];
    }
    return [];
  }

  /** The group a thread node sits in, or the Archived node: what to reveal it under. */
  parent(node: TreeNode): TreeNode | undefined {
    if (node.kind === 'thread')
      return node.archived ? this.archivedNode : (this.folderOf(node) ?? this.groups.get(this.groupOf(node)));
    if (node.kind === 'loadMore' && node.section === 'archived') return this.archivedNode;
    return undefined;
  }

  /** The first page of threads is in (until the next reset): an empty tree now means there are none. */
  get listed(): boolean {
    return this.active.loaded;
  }

  thread(threadId: string): ThreadNode | undefined {
    return this.nodes.get(threadId);
  }

  /** The folders, in the server's order. */
  get sectionFolders(): FolderNode[] {
    return [...this.folders.values()];
  }

  /** Lists the sections again (after one was created, renamed or deleted: no notification says so). */
  async reloadSections(): Promise<void> {
    this.foldersLoading = undefined;
    await this.ensureFolders();
    this.fire(undefined);
  }

  /**
   * Threads waiting for the user's approval (the view's badge): by their status, and those in
   * `alsoWaiting` (the prompts the client holds, whatever their thread's status says).
   */
  waitingCount(alsoWaiting: Iterable<string> = []): number {
    const waiting = new Set(alsoWaiting);
    for (const { thread } of this.nodes.values()) {
      const { status } = thread;
      if (status.type === 'active' && status.activeFlags.includes('waitingOnApproval'))
        waiting.add(thread.id);
    }
    return waiting.size;
  }

  async loadMore(section: SectionId): Promise<void> {
    const s = section === 'active' ? this.active : this.archived;
    if (!s.cursor) return;
    await this.fetchPage(s);
    this.fire(section === 'active' ? undefined : [this.archivedNode]);
  }

  /** Forgets everything listed (a refresh, a scope change, a restarted server). */
  reset(): void {
    this.early = undefined;
    this.active = this.section('active');
    this.archived = this.section('archived');
    this.nodes.clear();
    this.foldersLoading = undefined;
    this.error = undefined;
    this.fire(undefined);
  }

  /** Applies one server notification (others are ignored); true when the tree changed. */
  apply(notification: ServerNotification): boolean {
    if (notification.method === 'thread/started') this.announce(notification.params.thread);
    if (notification.method === 'thread/archived') this.announced.delete(notification.params.threadId);
    if (this.early) {
      this.early.push(notification);
      return false;
    }
    return routeNotification(this.handlers, notification) ?? false;
  }

  private announce(thread: Thread): void {
    if (thread.ephemeral) return;
    this.announced.delete(thread.id);
    this.announced.set(thread.id, thread);
    if (this.announced.size > maxAnnounced) this.announced.delete(this.announced.keys().next().value!);
  }

  private readonly handlers: NotificationHandlers<boolean> = {
    'thread/started': ({ thread }) => this.started(thread),
    'thread/name/updated': ({ threadId, threadName }) =>
      this.update(threadId, (t) => ({ ...t, name: threadName })),
    'item/started': (params) => this.retitle(params.threadId, { method: 'item/started', params }),
    'thread/status/changed': ({ threadId, status }) => this.update(threadId, (t) => ({ ...t, status })),
    'thread/closed': ({ threadId }) =>
      this.update(threadId, (t) => ({ ...t, status: { type: 'notLoaded' } })),
    'thread/archived': ({ threadId }) => this.archive(threadId),
    'thread/unarchived': ({ threadId }) => {
      void this.unarchive(threadId);
      return true;
    },
    'thread/section/changed': ({ threadId, sectionId }) => {
      if (sectionId === null || this.folders.has(sectionId)) return this.placeIn(threadId, sectionId);
      // A section made elsewhere since we listed them (no notification says so): list them again.
      void this.reloadSections().then(() => this.placeIn(threadId, sectionId));
      return false;
    },
  };

  private placeIn(threadId: string, sectionId: string | null): boolean {
    const section = sectionId === null ? null : (this.folders.get(sectionId)?.section ?? null);
    const node = this.nodes.get(threadId);
    if (!node) return false;
    node.thread = { ...node.thread, section };
    this.fire(undefined); // it left one parent for another
    return true;
  }

  private folderOf(node: ThreadNode): FolderNode | undefined {
    const id = node.thread.section?.id;
    return node.archived || !id ? undefined : this.folders.get(id);
  }

  private ensureFolders(): Promise<void> {
    const list = this.source.sections;
    this.foldersLoading ??= (list ? list.call(this.source) : Promise.resolve([])).then(
      (sections) => {
        this.folders = new Map(sections.map((section) => [section.id, { kind: 'folder', section }]));
      },
      () => {}, // the threads are listed without folders; the next refresh asks again
    );
    return this.foldersLoading;
  }

  private async rootChildren(): Promise<TreeNode[]> {
    await Promise.all([this.ensureLoaded(this.active), this.ensureFolders()]);
    if (this.error) return [];
    const groups = recencyGroups.map(({ id }) => this.groups.get(id)!).filter((g) => this.stillShown(g));
    const more = this.active.cursor ? [this.active.more] : [];
    const archived = this.active.threads.length > 0 || this.anyArchived ? [this.archivedNode] : [];
    return [...this.folders.values(), ...groups, ...more, ...archived];
  }

  private section(id: SectionId): Section {
    return { threads: [], cursor: null, loaded: false, more: { kind: 'loadMore', section: id } };
  }

  private async ensureLoaded(s: Section): Promise<void> {
    if (s.loaded) return;
    if (s === this.active && !s.loading) this.early = [];
    // The folders come with the first page, so notifications held back meanwhile find them.
    const folders = s === this.active ? this.ensureFolders() : undefined;
    s.loading ??= Promise.all([this.fetchPage(s), folders]).then(async () => {
      if (s === this.active && s.threads.length === 0) {
        const archived = await this.source.list({ ...this.query(true), limit: 1 });
        this.anyArchived = archived.data.length > 0;
      }
    });
    try {
      await s.loading;
      this.error = undefined;
    } catch (error) {
      s.loading = undefined;
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      if (s === this.active) this.replayEarly();
    }
  }

  private replayEarly(): void {
    const early = this.early ?? [];
    this.early = undefined;
    for (const notification of early) this.apply(notification);
  }

  private query(archived: boolean): ParamsOf<'thread/list'> {
    const cwd = this.options.scope();
    return {
      limit: this.pageSize,
      sortKey: 'updated_at',
      sourceKinds: listedSources,
      archived,
      ...(cwd ? { cwd } : {}),
    };
  }

  private async fetchPage(s: Section): Promise<void> {
    const archived = s === this.archived;
    const page = await this.source.list({
      ...this.query(archived),
      ...(s.cursor ? { cursor: s.cursor } : {}),
    });
    // A reset while the page was on its way: the answer belongs to a tree that no longer exists.
    if (s !== this.active && s !== this.archived) return;
    for (const thread of page.data) {
      if (this.nodes.has(thread.id)) continue; // moved between pages while we paged
      const node: ThreadNode = { kind: 'thread', thread, archived };
      this.nodes.set(thread.id, node);
      s.threads.push(node);
    }
    // The first page of threads: those started here that the server does not list yet are added.
    if (s === this.active && !s.cursor) {
      for (const thread of this.announced.values()) {
        if (this.nodes.has(thread.id) || !this.inScope(thread)) continue;
        const node: ThreadNode = { kind: 'thread', thread, archived: false };
        this.nodes.set(thread.id, node);
        this.insertSorted(s, node);
      }
    }
    s.cursor = page.nextCursor;
    s.loaded = true;
  }

  private groupOf(node: ThreadNode): RecencyGroup {
    return recencyOf(node.thread.updatedAt, this.now());
  }

  private inScope(thread: Thread): boolean {
    const cwd = this.options.scope();
    return !cwd || cwd.includes(thread.cwd);
  }

  private started(thread: Thread): boolean {
    if (this.nodes.has(thread.id) || !this.active.loaded || !this.inScope(thread)) return false;
    if (thread.ephemeral) return false;
    const node: ThreadNode = { kind: 'thread', thread, archived: false };
    this.nodes.set(thread.id, node);
    this.insertSorted(this.active, node);
    this.fireGroupOf(node);
    return true;
  }

  /** A new thread's first prompt becomes its preview here, as the server will list it. */
  private retitle(threadId: string, notification: ServerNotification): boolean {
    const node = this.nodes.get(threadId);
    if (!node) return false;
    const thread = retitled(node.thread, notification);
    return thread !== node.thread && this.update(threadId, () => thread);
  }

  private update(threadId: string, change: (thread: Thread) => Thread): boolean {
    const node = this.nodes.get(threadId);
    if (!node) return false;
    node.thread = change(node.thread);
    this.fire([node]);
    return true;
  }

  private archive(threadId: string): boolean {
    const node = this.nodes.get(threadId);
    this.anyArchived = true;
    if (!node && this.archived.loaded) {
      this.archived = this.section('archived'); // listed afresh when the Archived node is next shown
      this.fire([this.archivedNode]);
      return true;
    }
    if (!node || node.archived) return false;
    const group = this.folderOf(node) ?? this.groups.get(this.groupOf(node))!;
    this.remove(this.active, node);
    node.archived = true;
    if (this.archived.loaded) this.insertSorted(this.archived, node);
    else this.nodes.delete(threadId); // listed with the rest when the Archived node opens
    this.fire(group.kind === 'folder' || this.stillShown(group) ? [group, this.archivedNode] : undefined);
    return true;
  }

  private async unarchive(threadId: string): Promise<void> {
    const node = this.nodes.get(threadId);
    if (node?.archived) {
      this.remove(this.archived, node);
      this.nodes.delete(threadId);
    }
    const thread = await this.source.read(threadId).catch(() => undefined);
    if (!thread || this.nodes.has(threadId)) return this.fire([this.archivedNode]);
    if (!this.active.loaded || !this.inScope(thread)) return this.fire(undefined);
    const back: ThreadNode = { kind: 'thread', thread, archived: false };
    this.nodes.set(threadId, back);
    this.insertSorted(this.active, back);
    this.fire(undefined);
  }

  private remove(s: Section, node: ThreadNode): void {
    const at = s.threads.indexOf(node);
    if (at !== -1) s.threads.splice(at, 1);
  }

  private insertSorted(s: Section, node: ThreadNode): void {
    const at = s.threads.findIndex((t) => t.thread.updatedAt < node.thread.updatedAt);
    s.threads.splice(at === -1 ? s.threads.length : at, 0, node);
  }

  private stillShown(group: GroupNode): boolean {
    return this.active.threads.some((t) => !this.folderOf(t) && this.groupOf(t) === group.group);
  }

  /** A new thread: its group's children changed, or the root when the group (or the tree) was empty. */
  private fireGroupOf(node: ThreadNode): void {
    const group = this.groups.get(this.groupOf(node))!;
    const alone = this.active.threads.filter((t) => this.groupOf(t) === group.group).length === 1;
    this.fire(alone ? undefined : [group]);
  }

  private fire(nodes: TreeNode[] | undefined): void {
    this.changed.fire(nodes);
  }
}
