// The conversation view: the thread's title and context meter, its plan while a turn runs, the list,
// the prompts waiting for the user (above the composer, never in its place) and the composer; or, when
// no thread is shown, the start view (a new thread's composer and the recent threads). While a thread
// it showed before is on its way, the page's own loading skeleton shows (store/viewStatus.ts); a server
// that stopped for good takes the composer's place, with the reason, Show Log and Restart.
import { Composer } from './composer/Composer';
import { ContextMeter } from './components/ContextMeter';
import { Conversation } from './components/Conversation';
import { useView, useViewStatus } from './components/hooks';
import { PlanPanel } from './components/PlanPanel';
import { PromptQueue } from './prompts/PromptQueue';
import { StartView } from './start/StartView';
import { NewThreadIntro } from './states/NewThreadIntro';
import { ServerFailed } from './states/ServerFailed';
import { ThreadStatusChip } from './states/ThreadStatusChip';
import { GoalChip } from './states/GoalChip';
import type { ConversationState } from './store/state';
import { isThreadItem } from '../server/protocol/itemTypes';
import { promptText, threadTitle } from './common/threadTitle';

/** A new thread's preview is empty until it is read again: its first prompt stands in for it. */
function firstUserText(state: ConversationState): string | undefined {
  const first = state.items[state.turns[state.turnIds[0]]?.itemKeys[0] ?? ''];
  return first && isThreadItem(first) ? promptText(first) : undefined;
}

/** The last folder name of a path, whichever separator it uses. */
function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** Where a thread works: its folder, or a worktree thread's branch (its folder is named by its id). */
function workPlace(thread: NonNullable<ConversationState['thread']>): { name: string; worktree: boolean } {
  const branch = thread.gitInfo?.branch;
  return branch?.startsWith('threadline/')
    ? { name: branch, worktree: true }
    : { name: folderName(thread.cwd), worktree: false };
}

export function App() {
  const status = useViewStatus();
  const thread = useView((s) => s.thread);
  const firstPrompt = useView(firstUserText);
  const empty = useView((s) => s.turnIds.length === 0 && !s.hasOlderTurns);
  // The skeleton in the page's HTML covers this moment.
  if (status.phase === 'loading') return null;
  if (!thread) return <StartView failure={status.serverFailure} />;
  const title = threadTitle(thread, firstPrompt);
  return (
    <main className="tl-app" aria-label={`Conversation: ${title}`}>
      <header className="tl-header">
        <span className="tl-title">{title}</span>
        <GoalChip />
        <ThreadStatusChip />
        <ContextMeter />
      </header>
      <PlanPanel />
      {empty ? (
        <div className="tl-start-body">
          <NewThreadIntro place={workPlace(thread)} />
        </div>
      ) : (
        <Conversation key={thread.id} threadId={thread.id} />
      )}
      {status.serverFailure !== null ? (
        <ServerFailed reason={status.serverFailure} />
      ) : (
        <>
          <PromptQueue threadId={thread.id} />
          <Composer key={`composer:${thread.id}`} threadId={thread.id} />
        </>
      )}
    </main>
  );
}
