// A virtualized list for a conversation, anchored at its end: only the rows near the viewport are in the
// DOM, with spacers for the rest sized from measured heights (an estimate until a row was shown once).
// It positions itself in the same task that renders it — a thread opens at its last row in its first
// frame, with no measuring pass first — and keeps the view still while rows above it change: either it
// sticks to the end (following a streaming answer) or it keeps its top row where it was (paging older
// turns in, a row above growing). Only moving the view up (wheel, keys, focus, find) lets go of the end.
import {
  forwardRef,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { flushSync } from 'react-dom';

export interface VirtualListHandle {
  /** Sticks to the end again and scrolls there. */
  scrollToEnd(): void;
  /** Puts this row at the top of the view (it stops following the end). */
  scrollToKey(key: string): void;
}

interface Props<T> {
  rows: readonly T[];
  rowKey: (row: T) => string;
  renderRow: (row: T) => ReactNode;
  className?: string;
  /** The row to show at the top at first; the list starts at its end without one. */
  initialTopRow?: number;
  /** Told when the user scrolls away from the end, and when the list is back at it. */
  onStickChange?: (sticks: boolean) => void;
  /** Told the first row in view as the list scrolls (to restore it later), null while at the end. */
  onTopRowChange?: (index: number | null) => void;
  /** Called when the user nears the first row (to page older rows in). */
  onStartReached?: () => void;
}

/** Height assumed for a row not shown yet. */
const estimatedHeight = 80;
/** Rows are rendered this far beyond each edge of the viewport. */
const overscan = 600;
/** Closer to the end than this counts as at the end. */
const endSlack = 40;

export const VirtualList = forwardRef(function VirtualList<T>(
  props: Props<T>,
  ref: React.ForwardedRef<VirtualListHandle>,
) {
  const { rows, rowKey, renderRow } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [viewportHeight, setViewportHeight] = useState(0);
  const viewport = useRef(0);
  viewport.current = viewportHeight;
  /** Bumped when a row's measured height changed (the row tops are computed again). */
  const [measured, bumpMeasured] = useState(0);
  /** Bumped when the scroll position changed (the rendered range is computed again). */
  const [, bumpScrolled] = useState(0);
  const sticking = useRef(props.initialTopRow === undefined);
  /** While not sticking: the top row in view and how far the viewport's top is below that row's top. */
  const anchor = useRef<{ key: string; offset: number } | null>(
    props.initialTopRow !== undefined && rows[props.initialTopRow]
      ? { key: rowKey(rows[props.initialTopRow]), offset: 0 }
      : null,
  );
  const lastScrollTop = useRef(0);
  const callbacks = useRef(props);
  callbacks.current = props;

  // Row tops from the heights known so far: the same model places the spacers and the scroll position.
  const layout = useMemo(() => {
    const tops = new Float64Array(rows.length + 1);
    const index = new Map<string, number>();
    rows.forEach((row, i) => {
      const key = rowKey(row);
      index.set(key, i);
      tops[i + 1] = tops[i] + (heights.current.get(key) ?? estimatedHeight);
    });
    return { tops, index, total: tops[rows.length] };
    // `measured` stands for the heights map, which changes in place.
  }, [rows, rowKey, measured]);

  const height = viewportHeight || window.innerHeight || 800;
  const intendedTop = (() => {
    if (sticking.current || !anchor.current) return Math.max(0, layout.total - height);
    const i = layout.index.get(anchor.current.key);
    return i === undefined ? 0 : layout.tops[i] + anchor.current.offset;
  })();
  const [first, last] = rangeAt(layout.tops, intendedTop, height);
  const rendered = useRef([first, last]);
  rendered.current = [first, last];

  /** Puts the scroll position where the model says it belongs: the end, or the anchor row. */
  const settle = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    let top = el.scrollHeight - el.clientHeight;
    if (!sticking.current && anchor.current) {
      const i = layout.index.get(anchor.current.key);
      if (i !== undefined) top = layout.tops[i] + anchor.current.offset;
    }
    if (Math.abs(el.scrollTop - top) > 1) el.scrollTop = top;
  }, [layout]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && el.clientHeight !== viewportHeight) setViewportHeight(el.clientHeight);
    settle();
  });

  // A list that starts near its first row asks for older ones at once (no scroll event will).
  useEffect(() => {
    const el = scroller.current;
    if (el && el.scrollTop < overscan) callbacks.current.onStartReached?.();
  }, []);

  // Rows report their heights, the scroller its own; either re-renders before the frame is painted.
  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver((entries) => {
            let rowsChanged = false;
            for (const entry of entries) {
              const el = entry.target as HTMLElement;
              if (el === scroller.current) {
                if (el.clientHeight !== viewport.current) flushSync(() => setViewportHeight(el.clientHeight));
                continue;
              }
              const key = el.dataset.rowKey;
              const size = entry.borderBoxSize?.[0]?.blockSize ?? el.offsetHeight;
              if (key !== undefined && el.isConnected && heights.current.get(key) !== size) {
                heights.current.set(key, size);
                rowsChanged = true;
              }
            }
            if (rowsChanged) flushSync(() => bumpMeasured((n) => n + 1));
          }),
    [],
  );
  useEffect(() => {
    if (scroller.current) observer?.observe(scroller.current);
    return () => observer?.disconnect();
  }, [observer]);
  const measure = useCallback(
    (el: HTMLDivElement | null) => {
      if (!el || !observer) return;
      observer.observe(el);
      return () => observer.unobserve(el);
    },
    [observer],
  );

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight <= endSlack;
    // Content growing below leaves the position as it was; anything that moved the view up (the
    // user's wheel or keys, focus moving to a button above, find in page) lets go of the end.
    const movedUp = el.scrollTop < lastScrollTop.current - 1;
    lastScrollTop.current = el.scrollTop;
    if (atEnd && !sticking.current) setSticking(true);
    else if (!atEnd && movedUp && sticking.current) setSticking(false);
    const i = rowAt(layout.tops, el.scrollTop);
    if (!sticking.current && rows[i])
      anchor.current = { key: rowKey(rows[i]), offset: el.scrollTop - layout.tops[i] };
    callbacks.current.onTopRowChange?.(sticking.current || !rows[i] ? null : i);
    if (el.scrollTop < overscan) callbacks.current.onStartReached?.();
    // Following a streaming answer scrolls every frame; only a change of rendered rows needs a render.
    const [from, to] = rangeAt(layout.tops, el.scrollTop, el.clientHeight);
    if (from !== rendered.current[0] || to !== rendered.current[1]) bumpScrolled((n) => n + 1);
  };

  const setSticking = (value: boolean) => {
    sticking.current = value;
    callbacks.current.onStickChange?.(value);
  };

  useImperativeHandle(ref, () => ({
    scrollToEnd: () => {
      setSticking(true);
      settle();
      bumpScrolled((n) => n + 1);
    },
    scrollToKey: (key: string) => {
      setSticking(false);
      anchor.current = { key, offset: 0 };
      settle();
      bumpScrolled((n) => n + 1);
    },
  }));

  return (
    <div
      ref={scroller}
      className={props.className}
      style={{ overflowY: 'auto', overflowAnchor: 'none' }}
      onScroll={onScroll}
    >
      <div style={{ paddingTop: layout.tops[first], paddingBottom: layout.total - layout.tops[last + 1] }}>
        {rows.slice(first, last + 1).map((row) => {
          const key = rowKey(row);
          return (
            // flow-root keeps a row's margins inside it, so its measured height is all the room it takes.
            <div key={key} ref={measure} data-row-key={key} style={{ display: 'flow-root' }}>
              {renderRow(row)}
            </div>
          );
        })}
      </div>
    </div>
  );
}) as <T>(props: Props<T> & { ref?: React.Ref<VirtualListHandle> }) => ReactNode;

/** The rows to render for a viewport at `top`: those in view and `overscan` pixels on either side. */
function rangeAt(tops: Float64Array, top: number, height: number): [number, number] {
  const count = tops.length - 1;
  return [
    Math.max(0, rowAt(tops, top - overscan)),
    Math.min(count - 1, rowAt(tops, top + height + overscan)),
  ];
}

/** The index of the row at `offset` (binary search over the row tops). */
function rowAt(tops: Float64Array, offset: number): number {
  let low = 0;
  let high = tops.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (tops[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return Math.max(0, low);
}
