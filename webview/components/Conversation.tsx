// The conversation list: virtualized (only rows near the view are in the DOM), following the output
// while the user is at the bottom, a "Jump to latest" button when they are not, older turns paged in at
// the top (a long turn's earlier items on request), and the first visible row remembered per thread
// across hide/show and reloads.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { turnRowKey, type Row } from '../store/state';
import { useHost, useStore, useView } from './hooks';
import { EarlierItems } from './EarlierItems';
import { ItemView } from './ItemView';
import { TurnError } from './TurnError';
import { TurnHeader } from './TurnHeader';
import { VirtualList, type VirtualListHandle } from './VirtualList';

const rowKey = (row: Row) => row.key;

export function Conversation({ threadId }: { threadId: string }) {
  const host = useHost();
  const rows = useView((s) => s.rows);
  const hasOlderTurns = useView((s) => s.hasOlderTurns);
  const list = useRef<VirtualListHandle>(null);
  const loadingOlder = useRef(false);
  const initialTopRow = useMemo(() => {
    const saved = host.state.scroll[threadId];
    return saved !== undefined && saved < rows.length ? saved : undefined;
    // Only the first render's position matters: later renders scroll by the user or by following.
  }, [threadId]);
  const [sticks, setSticks] = useState(initialTopRow === undefined);
  const store = useStore();
  const reveal = useSyncExternalStore(store.subscribe, () => store.revealTurnId);

  const loadOlder = useCallback(() => {
    if (!hasOlderTurns || loadingOlder.current) return;
    loadingOlder.current = true;
    void host.request('loadOlderTurns', { threadId }).finally(() => (loadingOlder.current = false));
  }, [host, threadId, hasOlderTurns]);

  // A picked search result: scroll to its turn, paging older turns in until it is there.
  useEffect(() => {
    if (!reveal) return;
    const key = turnRowKey(reveal);
    if (rows.some((row) => row.key === key)) {
      store.revealTurnId = null;
      list.current?.scrollToKey(key);
    } else if (hasOlderTurns) {
      loadOlder();
    } else {
      store.revealTurnId = null;
    }
  }, [reveal, rows, hasOlderTurns, loadOlder, store]);

  const saveScroll = useCallback(
    (index: number | null) => {
      if ((host.state.scroll[threadId] ?? null) === index) return;
      const { [threadId]: _, ...others } = host.state.scroll;
      host.saveState({ scroll: index === null ? others : { ...others, [threadId]: index } });
    },
    [host, threadId],
  );

  const renderRow = useCallback(
    (row: Row) =>
      row.kind === 'turn' ? (
        <TurnHeader turnId={row.turnId} />
      ) : row.kind === 'earlierItems' ? (
        <EarlierItems turnId={row.turnId} />
      ) : row.kind === 'turnError' ? (
        <TurnError turnId={row.turnId} />
      ) : (
        <ItemView itemKey={row.key} />
      ),
    [],
  );

  return (
    <div className="tl-conversation">
      <VirtualList
        ref={list}
        className="tl-list"
        rows={rows}
        rowKey={rowKey}
        renderRow={renderRow}
        initialTopRow={initialTopRow}
        onStickChange={setSticks}
        onTopRowChange={saveScroll}
        onStartReached={loadOlder}
      />
      {!sticks && (
        <button type="button" className="tl-jump" onClick={() => list.current?.scrollToEnd()}>
          <span className="codicon codicon-arrow-down" aria-hidden="true" /> Jump to latest
        </button>
      )}
    </div>
  );
}
