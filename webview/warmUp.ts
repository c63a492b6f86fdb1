// One-time costs that would otherwise land in the first snapshot's frame: highlight.js compiles a
// language's grammar on its first use (TypeScript's takes tens of milliseconds), and Intl loads its
// locale data for the first formatted time. The webview loads before its thread arrives (the host
// reads it from the server after the ready handshake), so this runs in that idle time: one piece per
// idle period, none long enough to be a long task, and whatever is not warm yet is compiled on use.
import { formatClock } from './components/fields';
import { highlight, highlightedLanguages } from './components/markdownRender';

export function warmUpWhenIdle(): void {
  const tasks = [
    () => formatClock(0),
    ...highlightedLanguages.map((language) => () => highlight('x', language)),
  ];
  const next = () => {
    tasks.shift()?.();
    if (tasks.length > 0) whenIdle(next);
  };
  whenIdle(next);
}

function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 5000 });
  else setTimeout(task, 50);
}
