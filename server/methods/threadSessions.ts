// Starting, resuming and forking a thread for a client: the thread record, its settings, the
// subscription and the `thread/started` announcement. Shared by the thread methods and review/start
// (a detached review runs on a fork), so no handler has to call another.
import { resolve } from 'node:path';
import { applyOverrides, effectiveSandboxPolicy, type ThreadSettings } from '../config/settings';
import type { NotificationMethod, NotificationParamsOf, ParamsOf, ResultOf } from '../protocol/methods';
import type { SessionSource, Turn } from '../protocol/thread';
import type { Peer } from '../rpc/clientConnection';
import type { Services } from '../services';
import { readGitInfo } from '../threads/gitInfo';
import type { ThreadSummary } from '../threads/summary';
import type { NewThread } from '../threads/threadStore';
import { readImportedRollout } from '../threads/rolloutImport';
import { settingsFor } from './threadSettings';
import { settleOrphanedTurns, toThread } from './threadView';
import { encodeTurnCursor } from './turnsList';
import { checkFork } from '../git/worktreeLifecycle';
import { createWorktree } from '../git/worktrees';
import { uuidv7 } from '../threads/uuidv7';
import { worktreeRpcError } from './worktree';

/**
 * As the reference server does, every thread started through the app-server is interactive
 * (`vscode`), whoever the client is, so any client finds its threads in the default listing; the
 * client's own name is kept as the thread's originator.
 */
const APP_SERVER_SOURCE: SessionSource = 'vscode';

type Session = ResultOf<'thread/start'>;

export class ThreadSessions {
  constructor(private readonly services: Services) {}

  view(summary: ThreadSummary, turns: Turn[] = []) {
    const { home, loaded, sections } = this.services;
    const thread = toThread(home, summary, loaded.statusOf(summary.id), turns, summary.path === '');
    const placement = sections.placementOf(summary.id);
    return { ...thread, section: placement?.section ?? null, sectionEnteredAt: placement?.enteredAt ?? null };
  }

  /** Lifecycle notifications go out after the response that caused them. */
  announce<N extends NotificationMethod>(
    peer: Peer,
    threadId: string,
    method: N,
    params: NotificationParamsOf<N>,
  ) {
    setImmediate(() => this.services.loaded.notifyWith(peer, threadId, method, params));
  }

  async start(params: ParamsOf<'thread/start'>, peer: Peer): Promise<Session> {
    const requested = resolve(params.cwd ?? process.cwd());
    const settingsIn = async (cwd: string) =>
      applyOverrides({ ...(await this.services.config(cwd)), cwd }, { ...params, cwd });
    let settings = await settingsIn(requested);
    await this.services.enforceRequirements(settings);
    // In a worktree the thread's id names it, so the id is chosen first; the worktree is the cwd.
    const id = params.worktree ? uuidv7() : undefined;
    if (params.worktree) {
      const link = await createWorktree(this.services.home, id!, requested, params.worktree).catch(
        (error: unknown) => {
          throw worktreeRpcError(error);
        },
      );
      settings = await settingsIn(link.worktreePath);
    }
    const store = await this.services.store();
    const thread = await this.newThread(settings, peer, params.ephemeral === true);
    const summary = await store.create({ ...thread, id });
    const result = this.session(summary, settings, peer, []);
    this.announce(peer, summary.id, 'thread/started', { thread: result.thread });
    return result;
  }

  async resume(params: ParamsOf<'thread/resume'>, peer: Peer): Promise<ResultOf<'thread/resume'>> {
    const store = await this.services.store();
    const summary = await this.continuation(store.require(params.threadId), params, peer);
    const running = this.services.loaded.statusOf(summary.id).type === 'active';
    const history = await store.history(summary.id);
    const settings = await settingsFor(this.services, summary, params);
    const turns = params.excludeTurns ? [] : settleOrphanedTurns(history.turns, running);
    const newest = history.turns[history.turns.length - 1];
    return {
      ...this.session(summary, settings, peer, turns),
      turnsBackwardsCursor: newest ? encodeTurnCursor(newest.id, true) : null,
    };
  }

  async fork(params: ParamsOf<'thread/fork'>, peer: Peer): Promise<Session> {
    const store = await this.services.store();
    const source = store.require(params.threadId);
    await checkFork(this.services.home, source.id, params.cwd).catch((error: unknown) => {
      throw worktreeRpcError(error);
    });
    const settings = await settingsFor(this.services, source, params);
    const thread = await this.newThread(settings, peer, params.ephemeral === true);
    const summary = await store.fork(source.id, thread, params.lastTurnId ?? undefined);
    const turns = params.excludeTurns
      ? []
      : settleOrphanedTurns((await store.history(summary.id)).turns, false);
    const result = this.session(summary, settings, peer, turns);
    this.announce(peer, summary.id, 'thread/started', { thread: { ...result.thread, turns: [] } });
    return result;
  }

  /**
   * A new thread holding an exported rollout's turns (thread/import). It runs with this server's
   * settings for the given folder, as a new thread would: the file's folder, model and provider are
   * someone else's and are not taken. Not loaded: the client resumes it to continue.
   */
  async import(params: ParamsOf<'thread/import'>, peer: Peer): Promise<ResultOf<'thread/import'>> {
    const imported = await readImportedRollout(params.path);
    const cwd = resolve(params.cwd ?? process.cwd());
    const settings = applyOverrides({ ...(await this.services.config(cwd)), cwd }, { cwd });
    await this.services.enforceRequirements(settings);
    const store = await this.services.store();
    const named = imported.name ? [{ type: 'name_set' as const, ts: Date.now(), name: imported.name }] : [];
    const summary = await store.create(await this.newThread(settings, peer, false), [
      ...imported.records,
      ...named,
    ]);
    const thread = this.view(summary, (await store.history(summary.id)).turns);
    this.announce(peer, summary.id, 'thread/started', { thread: { ...thread, turns: [] } });
    return { thread };
  }

  /**
   * The thread a resume continues: the thread itself, or for a thread of the Codex history (which
   * is only read) our newest fork of it, made now when there is none; it remembers its origin.
   */
  private async continuation(
    summary: ThreadSummary,
    params: ParamsOf<'thread/resume'>,
    peer: Peer,
  ): Promise<ThreadSummary> {
    const store = await this.services.store();
    if (!store.isCodex(summary.id)) return summary;
    const existing = store.newestForkOf(summary.id);
    if (existing) return existing;
    const settings = await settingsFor(this.services, summary, params);
    const fork = await store.fork(summary.id, await this.newThread(settings, peer, false));
    this.announce(peer, fork.id, 'thread/started', { thread: this.view(fork) });
    return fork;
  }

  /** Loads the thread for the peer with these settings and describes the session. */
  private session(summary: ThreadSummary, settings: ThreadSettings, peer: Peer, turns: Turn[]): Session {
    this.services.loaded.subscribe(summary.id, peer).settings = settings;
    return {
      thread: this.view(summary, turns),
      model: settings.model,
      modelProvider: settings.modelProvider,
      cwd: settings.cwd,
      approvalPolicy: settings.approvalPolicy,
      approvalsReviewer: 'user',
      sandbox: effectiveSandboxPolicy(settings),
      reasoningEffort: settings.reasoningEffort,
    };
  }

  private async newThread(settings: ThreadSettings, peer: Peer, ephemeral: boolean): Promise<NewThread> {
    return {
      cwd: settings.cwd,
      modelProvider: settings.modelProvider,
      model: settings.model,
      source: APP_SERVER_SOURCE,
      originator: peer.clientInfo?.name ?? null,
      cliVersion: __THREADLINE_VERSION__,
      forkedFromId: null,
      gitInfo: await readGitInfo(settings.cwd),
      ephemeral,
    };
  }
}
