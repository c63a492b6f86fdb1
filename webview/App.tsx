// The conversation view: the thread's title and context meter, its plan while a turn runs, the list,
// and the composer; or an empty state when no thread is shown.
import { useSyncExternalStore } from 'react';
import { Composer } from './composer/Composer';
import { ContextMeter } from './components/ContextMeter';
import { Conversation } from './components/Conversation';
import { useStore, useView } from './components/hooks';
import { PlanPanel } from './components/PlanPanel';

export function App() {
  const store = useStore();
  const thread = useView((s) => s.thread);
  const emptyReason = useSyncExternalStore(store.subscribe, () => store.emptyReason);
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
        <span className="tl-title">{thread.name ?? (thread.preview || 'New thread')}</span>
        <ContextMeter />
      </header>
      <PlanPanel />
      <Conversation key={thread.id} threadId={thread.id} />
      <Composer key={`composer:${thread.id}`} threadId={thread.id} />
    </main>
  );
}
