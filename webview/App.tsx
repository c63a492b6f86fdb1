// The conversation view: the thread's title and context meter, its plan while a turn runs, the list,
// the prompts waiting for the user (above the composer, never in its place) and the composer; or, when
// no thread is shown, the start view (a new thread's composer and the recent threads).
import { Composer } from './composer/Composer';
import { ContextMeter } from './components/ContextMeter';
import { Conversation } from './components/Conversation';
import { useView } from './components/hooks';
import { PlanPanel } from './components/PlanPanel';
import { PromptQueue } from './prompts/PromptQueue';
import { StartView } from './start/StartView';
import type { ConversationState } from './store/state';
import { isThreadItem } from '../server/protocol/itemTypes';
import { promptText, threadTitle } from './common/threadTitle';

/** A new thread's preview is empty until it is read again: its first prompt stands in for it. */
function firstUserText(state: ConversationState): string | undefined {
  const first = state.items[state.turns[state.turnIds[0]]?.itemKeys[0] ?? ''];
  return first && isThreadItem(first) ? promptText(first) : undefined;
}

export function App() {
  const thread = useView((s) => s.thread);
  const firstPrompt = useView(firstUserText);
  if (!thread) return <StartView />;
  const title = threadTitle(thread, firstPrompt);
  return (
    <main className="tl-app" aria-label={`Conversation: ${title}`}>
      <header className="tl-header">
        <span className="tl-title">{title}</span>
        <ContextMeter />
      </header>
      <PlanPanel />
      <Conversation key={thread.id} threadId={thread.id} />
      <PromptQueue threadId={thread.id} />
      <Composer key={`composer:${thread.id}`} threadId={thread.id} />
    </main>
  );
}
