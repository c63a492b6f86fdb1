// The conversation view: the thread's title and context meter, its plan while a turn runs, the list,
// the prompts waiting for the user (above the composer, never in its place) and the composer; or an
// empty state when no thread is shown.
import { useSyncExternalStore } from 'react';
import { Composer } from './composer/Composer';
import { ContextMeter } from './components/ContextMeter';
import { Conversation } from './components/Conversation';
import { useStore, useView } from './components/hooks';
import { PlanPanel } from './components/PlanPanel';
import { PromptQueue } from './prompts/PromptQueue';
import type { ConversationState } from './store/state';
import type { UserMessageItem } from '../server/protocol/items';

/** A new thread's preview is empty until it is read again: its first prompt stands in for it. */
function firstUserText(state: ConversationState): string | undefined {
  const first = state.items[state.turns[state.turnIds[0]]?.itemKeys[0] ?? ''];
  if (first?.type !== 'userMessage') return undefined;
  const text = (first as UserMessageItem).content.find((c) => c.type === 'text');
  return text && 'text' in text ? text.text.slice(0, 80) : undefined;
}

export function App() {
  const store = useStore();
  const thread = useView((s) => s.thread);
  const emptyReason = useSyncExternalStore(store.subscribe, () => store.emptyReason);
  const firstPrompt = useView(firstUserText);
  if (!thread) {
    return (
      <main className="tl-empty">
        <span className="codicon codicon-comment-discussion" aria-hidden="true" />
        <p>{emptyReason ?? 'Select a thread to see its conversation.'}</p>
      </main>
    );
  }
  return (
    <main className="tl-app" aria-label={`Conversation: ${thread.name ?? thread.preview}`}>
      <header className="tl-header">
        <span className="tl-title">{thread.name ?? (thread.preview || firstPrompt || 'New thread')}</span>
        <ContextMeter />
      </header>
      <PlanPanel />
      <Conversation key={thread.id} threadId={thread.id} />
      <PromptQueue threadId={thread.id} />
      <Composer key={`composer:${thread.id}`} threadId={thread.id} />
    </main>
  );
}
