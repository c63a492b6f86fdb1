// How prompt cards reach their state and answer: the shown thread's prompts from the store, and an
// answer that goes to the host and shows on the card at once.
import { useCallback, useSyncExternalStore } from 'react';
import { useHost, useStore } from '../components/hooks';
import type { PromptResult } from '../messages';
import type { PromptState } from '../store/prompts';

export function usePrompts(): PromptState {
  const store = useStore();
  return useSyncExternalStore(store.subscribePrompts, store.getPrompts);
}

export function useAnswer(): (key: string, result: PromptResult) => void {
  const host = useHost();
  const store = useStore();
  return useCallback(
    (key, result) => {
      host.post({ type: 'answerPrompt', key, result });
      store.dispatchPrompts({ type: 'answered', key, result });
    },
    [host, store],
  );
}
