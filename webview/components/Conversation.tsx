// The conversation list: virtualized (only rows in view are in the DOM), following the output while
// the user is at the bottom, a "Jump to latest" button when they are not, older turns paged in at the
// top, and the first visible row remembered per thread across hide/show and reloads.
import { useCallback, useMemo, useRef, useState } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import type { Row } from '../store/state';
import { useHost, useView } from './hooks';
import { ItemView } from './ItemView';
import { TurnHeader } from './TurnHeader';

/** Virtuoso counts rows from here so rows prepended from paging get lower indexes, keeping the anchor. */
const firstIndexBase = 1_000_000;

export function Conversation({ threadId }: { threadId: string }) {
  const host = useHost();
  const rows = useView((s) => s.rows);
  const hasOlderTurns = useView((s) => s.hasOlderTurns);
  const list = useRef<VirtuosoHandle>(null);
  const [atBottom, setAtBottom] = useState(true);
  const loadingOlder = useRef(false);
  const firstItemIndex = useFirstItemIndex(rows);
  const initial = useMemo(() => {
    const saved = host.state.scroll[threadId];
    return saved !== undefined && saved < rows.length ? saved : Math.max(0, rows.length - 1);
    // Only the first render's position matters: later renders scroll by the user or by following.
  }, [threadId]);

  const loadOlder = useCallback(() => {
    if (!hasOlderTurns || loadingOlder.current) return;
    loadingOlder.current = true;
    void host.request('loadOlderTurns', { threadId }).finally(() => (loadingOlder.current = false));
  }, [host, threadId, hasOlderTurns]);

  const saveScroll = useCallback(
    (range: { startIndex: number }) => {
      const index = range.startIndex - firstItemIndex;
      if (host.state.scroll[threadId] !== index)
        host.saveState({ scroll: { ...host.state.scroll, [threadId]: index } });
    },
    [host, threadId, firstItemIndex],
  );

  return (
    <div className="tl-conversation">
      <Virtuoso
        ref={list}
        className="tl-list"
        data={rows}
        firstItemIndex={firstItemIndex}
        initialTopMostItemIndex={{ index: initial, align: initial === rows.length - 1 ? 'end' : 'start' }}
        computeItemKey={(_, row) => row.key}
        itemContent={(_, row) =>
          row.kind === 'turn' ? (
            <TurnHeader turnId={row.turnId} />
          ) : (
            <ItemView itemKey={row.key} threadId={threadId} />
          )
        }
        followOutput={(bottom) => (bottom ? 'auto' : false)}
        atBottomStateChange={setAtBottom}
        atBottomThreshold={40}
        startReached={loadOlder}
        rangeChanged={saveScroll}
        increaseViewportBy={{ top: 400, bottom: 400 }}
      />
      {!atBottom && (
        <button
          type="button"
          className="tl-jump"
          onClick={() => list.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'auto' })}
        >
          <span className="codicon codicon-arrow-down" aria-hidden="true" /> Jump to latest
        </button>
      )}
    </div>
  );
}

/** Lowers Virtuoso's first index by the number of rows that appeared before the previous first row. */
function useFirstItemIndex(rows: Row[]): number {
  const state = useRef({ firstKey: rows[0]?.key, index: firstIndexBase });
  const previousFirst = state.current.firstKey;
  if (previousFirst !== undefined && rows[0]?.key !== previousFirst) {
    const moved = rows.findIndex((r) => r.key === previousFirst);
    if (moved > 0) state.current.index -= moved;
  }
  state.current.firstKey = rows[0]?.key;
  return state.current.index;
}
