// The composer's toolbar: its controls (model, effort, policy, attachments, and whatever is added as one
// more entry) each at its natural width with a tooltip, never cut. When the row cannot hold them all,
// the last ones move into one overflow menu ("…"), where each shows with its name. Which ones fit is
// measured, not guessed: each control's width is taken while it is in the row (a ResizeObserver sees
// the row and the controls change), and the ones that do not fit go to the menu. What stays at the end
// of the bar (Stop, Send) is never moved.
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface ToolbarControl {
  id: string;
  /** Its name: the overflow menu's label for it. */
  label: string;
  /** The control in the row (compact, with its own tooltip). */
  inline: ReactNode;
  /** The control in the overflow menu, next to its label; the inline one when not given. */
  inMenu?: ReactNode;
}

/** The gap between controls in the row (CSS `.tl-toolbar-row` gap). */
const gap = 4;
/** The overflow button's width before it was ever measured. */
const menuButtonGuess = 26;

/**
 * How many controls, from the first, the row shows: all when they fit in `room`, else as many as fit
 * beside the overflow button.
 */
export function fitCount(widths: number[], room: number, buttonWidth: number): number {
  const needed = (n: number) => widths.slice(0, n).reduce((sum, w, i) => sum + w + (i ? gap : 0), 0);
  if (needed(widths.length) <= room) return widths.length;
  let n = 0;
  while (n < widths.length && needed(n + 1) + gap + buttonWidth <= room) n++;
  return n;
}

export function ComposerToolbar({ controls, trailing }: { controls: ToolbarControl[]; trailing: ReactNode }) {
  const row = useRef<HTMLDivElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const widths = useRef(new Map<string, number>());
  const [fit, setFit] = useState(controls.length);
  const [open, setOpen] = useState(false);
  const ids = controls.map((c) => c.id).join('\n');

  const measure = useCallback(() => {
    const el = row.current;
    if (!el) return;
    const list = ids ? ids.split('\n') : [];
    // Not laid out (hidden, or a page without layout): nothing to decide, everything in the row.
    if (el.clientWidth === 0 && !menuButton.current) return setFit(list.length);
    for (const child of el.children) {
      const id = (child as HTMLElement).dataset.control;
      if (id) widths.current.set(id, child.getBoundingClientRect().width);
    }
    const buttonWidth = menuButton.current?.getBoundingClientRect().width || menuButtonGuess;
    // The row's room: its own width, plus the overflow button's when that button is showing now.
    const room = el.clientWidth + (menuButton.current ? buttonWidth + gap : 0);
    const next = fitCount(
      list.map((id) => widths.current.get(id) ?? 0),
      room,
      buttonWidth,
    );
    setFit(next);
  }, [ids]);

  useLayoutEffect(measure);

  useLayoutEffect(() => {
    const el = row.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    // A control's width changes after it renders (the selects draw their text late) or when its value
    // changes; the row's when the view is resized.
    const observer = new ResizeObserver(() => measure());
    observer.observe(el);
    for (const child of el.children) observer.observe(child);
    return () => observer.disconnect();
  });

  const shown = controls.slice(0, fit);
  const moved = controls.slice(fit);
  return (
    <>
      {open && moved.length > 0 && (
        <div className="tl-toolbar-menu" role="group" aria-label="More options">
          {moved.map((control) => (
            <div key={control.id} className="tl-toolbar-menu-row" data-control={control.id}>
              <span>{control.label}</span>
              {control.inMenu ?? control.inline}
            </div>
          ))}
        </div>
      )}
      <div className="tl-composer-bar">
        <div className="tl-toolbar-row" ref={row}>
          {shown.map((control) => (
            <span key={control.id} className="tl-toolbar-control" data-control={control.id}>
              {control.inline}
            </span>
          ))}
        </div>
        {moved.length > 0 && (
          <button
            ref={menuButton}
            type="button"
            className="tl-icon-button tl-toolbar-more"
            aria-label="More options"
            aria-expanded={open}
            title={`More: ${moved.map((c) => c.label).join(', ')}`}
            onClick={() => setOpen((o) => !o)}
          >
            <span className="codicon codicon-ellipsis" aria-hidden="true" />
          </button>
        )}
        {trailing}
      </div>
    </>
  );
}
