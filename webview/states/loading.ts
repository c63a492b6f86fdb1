// The loading skeleton (common/loadingSkeleton.ts, in the page's HTML) goes once the store has the
// host's first answer: a thread, the start view, or the server's failure.
import { loadingElementId } from '../common/loadingSkeleton';
import type { ConversationStore } from '../store/store';

/** Removes the skeleton when the store leaves `loading`; returns the unsubscribe. */
export function removeSkeletonWhenLoaded(store: ConversationStore, doc: Document): () => void {
  const check = () => {
    if (store.viewStatus.phase === 'loading') return;
    doc.getElementById(loadingElementId)?.remove();
    unsubscribe();
  };
  const unsubscribe = store.subscribe(check);
  check();
  return unsubscribe;
}
