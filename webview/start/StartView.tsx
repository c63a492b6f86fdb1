// The Conversation view with no thread open: a composer at once (sending starts a thread in this
// workspace), the workspace's name with example prompts, an entry to start a thread in a git worktree
// of its own, and the workspace's most recent threads to pick up again.
// With the server stopped for good, its failure stands first, and there is no composer.
import { useSyncExternalStore } from 'react';
import { Composer } from '../composer/Composer';
import { useHost, useStore } from '../components/hooks';
import type { RecentThread } from '../messages';
import { NewThreadIntro } from '../states/NewThreadIntro';
import { ServerFailed } from '../states/ServerFailed';

export function StartView({ failure = null }: { failure?: string | null }) {
  const store = useStore();
  const start = useSyncExternalStore(store.subscribe, () => store.start);
  const reason = useSyncExternalStore(store.subscribe, () => store.emptyReason);
  return (
    <main className="tl-app tl-start" aria-label="New thread">
      <div className="tl-start-body">
        {reason && !failure && (
          <p className="tl-error" role="alert">
            {reason}
          </p>
        )}
        {failure !== null ? (
          <ServerFailed reason={failure} />
        ) : (
          <>
            <NewThreadIntro
              place={start?.workspace ? { name: start.workspace, worktree: false } : undefined}
            />
            <WorktreeEntry />
          </>
        )}
        {start && start.recent.length > 0 && <RecentThreads threads={start.recent} />}
      </div>
      {failure === null && (
        <Composer key="composer:new" threadId={null} newThreadDefaults={start?.defaults} />
      )}
    </main>
  );
}

/** A thread in a git worktree of its own: parallel work on the repository without trampling. */
function WorktreeEntry() {
  const host = useHost();
  return (
    <button
      type="button"
      className="tl-example tl-start-worktree"
      title="Start a thread in its own git worktree and branch, so several can work on this repository at once"
      onClick={() => host.post({ type: 'runCommand', command: 'newThreadInWorktree' })}
    >
      <span className="codicon codicon-git-branch" aria-hidden="true" />
      <span>New Thread in Worktree</span>
    </button>
  );
}

function RecentThreads({ threads }: { threads: RecentThread[] }) {
  const host = useHost();
  return (
    <nav className="tl-recent" aria-label="Recent threads">
      <h3 className="tl-recent-heading">Recent</h3>
      <ul>
        {threads.map((t) => (
          <li key={t.id}>
            <button
              type="button"
              className="tl-recent-thread"
              title={t.label}
              onClick={() => host.post({ type: 'openThread', threadId: t.id })}
            >
              <span className="codicon codicon-comment-discussion" aria-hidden="true" />
              <span className="tl-recent-label">{t.label}</span>
              <span className="tl-muted">{ago(t.updatedAt, Date.now())}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** "5m", "3h", "2d": enough to tell recent threads apart in a narrow view. */
export function ago(updatedAt: number, now: number): string {
  const minutes = Math.max(0, Math.floor((now / 1000 - updatedAt) / 60));
  if (minutes < 1) return 'now';
  if (minutes < 60) return `${minutes}m`;
  if (minutes < 60 * 24) return `${Math.floor(minutes / 60)}h`;
  return `${Math.floor(minutes / (60 * 24))}d`;
}
