// Reading fields of items whose types server/protocol does not define (a web search from the reference
// server), and formatting: every read checks the type, so an unexpected shape renders as missing.
import type { AnyItem } from '../store/state';

type Bag = Record<string, unknown>;

export function str(item: AnyItem | Bag, field: string): string | undefined {
  const value = (item as Bag)[field];
  return typeof value === 'string' ? value : undefined;
}

export function list(item: AnyItem | Bag, field: string): Bag[] {
  const value = (item as Bag)[field];
  return Array.isArray(value) ? value.filter((v): v is Bag => typeof v === 'object' && v !== null) : [];
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds % 60)} s`;
}

/** One formatter for every turn's clock time: creating one (what toLocaleTimeString does) costs ~20 ms the first time. */
let clock: Intl.DateTimeFormat | undefined;

export function formatClock(epochSeconds: number): string {
  clock ??= new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
  return clock.format(epochSeconds * 1000);
}

export function formatTokens(count: number): string {
  return count >= 1000 ? `${(count / 1000).toFixed(count >= 10_000 ? 0 : 1)}k` : String(count);
}
