// Webview entry, one bundle for both pages: the conversation (connects the store to the host, says it is
// ready, and mounts the React app), or the usage panel where the page says `data-page="usage"`.
import { createRoot } from 'react-dom/client';
import '@vscode/codicons/dist/codicon.css';
import './composer/planAndSlash.css';
import './components/items/hookRun.css';
import './main.css';
import './prompts/prompts.css';
import './states/states.css';
import { App } from './App';
import { HostContext, StoreContext } from './components/hooks';
import { Host, type VsCodeApi } from './host';
import { ConversationStore } from './store/store';
import { removeSkeletonWhenLoaded } from './states/loading';
import { mountUsagePage } from './usage/usagePage';
import { warmUpWhenIdle } from './warmUp';

declare function acquireVsCodeApi(): VsCodeApi;

function mountConversation(container: HTMLElement): void {
  const host = new Host(acquireVsCodeApi(), window);
  const store = new ConversationStore({
    // Deltas are applied once per frame; a hidden view gets no frames, so it catches up on a timer.
    schedule: (flush) => (document.hidden ? setTimeout(flush, 250) : requestAnimationFrame(flush)),
    requestResync: (threadId) => host.post({ type: 'resync', threadId }),
    expectsThread: host.state.threadId !== undefined,
  });
  host.onMessage((message) => {
    store.receive(message);
    if (message.type === 'snapshot') host.saveState({ threadId: message.snapshot.thread.id });
  });

  removeSkeletonWhenLoaded(store, document);

  createRoot(container).render(
    <HostContext.Provider value={host}>
      <StoreContext.Provider value={store}>
        <App />
      </StoreContext.Provider>
    </HostContext.Provider>,
  );
  host.post({ type: 'ready', threadId: host.state.threadId });
  warmUpWhenIdle();
}

const root = document.getElementById('root');
if (root) {
  if (document.body.dataset.page === 'usage') mountUsagePage(root);
  else mountConversation(root);
}
