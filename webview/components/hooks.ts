// How components reach the store and the host: a context each, and subscriptions that re-render a
// component only when the part of the state it reads has changed.
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { Host } from '../host';
import type { ConversationStore } from '../store/store';
import type { AnyItem, ConversationState } from '../store/state';

export const StoreContext = createContext<ConversationStore | null>(null);
export const HostContext = createContext<Host | null>(null);

export function useStore(): ConversationStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('No conversation store');
  return store;
}

export function useHost(): Host {
  const host = useContext(HostContext);
  if (!host) throw new Error('No host');
  return host;
}

/** A slice of the view state (rows, a turn, usage); the selector must return stored references. */
export function useView<T>(select: (state: ConversationState) => T): T {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

/** Loading, the start view or a thread, and the server's failure (store/viewStatus.ts). */
export function useViewStatus(): ConversationStore['viewStatus'] {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, () => store.viewStatus);
}

/** One item, re-rendered only when that item changes. */
export function useItem(key: string): AnyItem | undefined {
  const store = useStore();
  const subscribe = useCallback((listener: () => void) => store.subscribeItem(key, listener), [store, key]);
  return useSyncExternalStore(subscribe, () => store.getState().items[key]);
}
