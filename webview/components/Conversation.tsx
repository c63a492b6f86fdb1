// The conversation list: virtualized (only rows in view are in the DOM), following the output while
// the user is at the bottom, a "Jump to latest" button when they are not, older turns paged in at the
// top, and the first visible row remembered per thread across hide/show and reloads.
import { useCallback, useMemo, useRef, useState, type RefObject } from 'react';
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
  const follow = useFollowOutput(list);
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
    <div
      className="tl-conversation"
      onWheel={follow.userScrolled}
      onKeyDown={follow.userScrolled}
      onPointerDown={follow.userScrolled}
    >
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
        followOutput={() => (follow.sticking.current ? 'auto' : false)}
        atBottomStateChange={follow.atBottomChanged}
        totalListHeightChanged={follow.heightChanged}
        atBottomThreshold={40}
        startReached={loadOlder}
        rangeChanged={saveScroll}
        increaseViewportBy={{ top: 400, bottom: 400 }}
      />
      {!follow.sticks && (
        <button type="button" className="tl-jump" onClick={follow.jumpToLatest}>
          <span className="codicon codicon-arrow-down" aria-hidden="true" /> Jump to latest
        </button>
      )}
    </div>
  );
}

/**
 * Stick-to-bottom: while the user is at the bottom, new rows and growing rows (a streaming answer) keep
 * the list scrolled to the end. Only the user's own scrolling (wheel, keys, dragging) lets go of it.
 */
function useFollowOutput(list: RefObject<VirtuosoHandle | null>) {
  const sticking = useRef(true);
  const [sticks, setSticks] = useState(true);
  const lastUserScroll = useRef(0);
  const toEnd = useCallback(
    () => list.current?.scrollToIndex({ index: 'LAST', align: 'end', behavior: 'auto' }),
    [list],
  );
  const stick = useCallback((value: boolean) => {
    sticking.current = value;
    setSticks(value);
  }, []);
  return {
    sticking,
    sticks,
    userScrolled: useCallback(() => (lastUserScroll.current = Date.now()), []),
    atBottomChanged: useCallback(
      (atBottom: boolean) => {
        if (atBottom) stick(true);
        else if (Date.now() - lastUserScroll.current < 1000) stick(false);
        else if (sticking.current) toEnd(); // the content grew under us: follow it
      },
      [stick, toEnd],
    ),
    heightChanged: useCallback(() => {
      if (sticking.current) toEnd();
    }, [toEnd]),
    jumpToLatest: useCallback(() => {
      stick(true);
      toEnd();
    }, [stick, toEnd]),
  };
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
