// Which threads' composers are in plan mode, kept in the webview's saved state so a reload keeps it,
// and the plan card's way to reach the composer: "Implement" and "Revise" are the composer's to act
// on (it knows the model and the pickers' choices the next turn runs with). The server keeps a
// thread's mode from turn to turn, so a turn names the mode only when it changes.
import { useCallback, useSyncExternalStore } from 'react';
import { Emitter } from '../common/emitter';
import { useHost } from '../components/hooks';
import type { Host } from '../host';

export type PlanAction = { action: 'implement' | 'revise'; threadId: string };

class PlanModes {
  private readonly changed = new Emitter<void>();
  readonly actions = new Emitter<PlanAction>();

  constructor(private readonly host: Host) {}

  private get all(): Record<string, boolean> {
    return this.host.state.planning ?? {};
  }

  isOn(threadKey: string): boolean {
    return this.all[threadKey] === true;
  }

  set(threadKey: string, on: boolean): void {
    if (this.isOn(threadKey) === on) return;
    const { [threadKey]: was, ...others } = this.all;
    // Leaving plan mode is remembered until a turn tells the server; never entered, nothing to tell.
    const next = on
      ? { ...others, [threadKey]: true }
      : was === true
        ? { ...others, [threadKey]: false }
        : others;
    this.host.saveState({ planning: next });
    this.changed.fire();
  }

  /** The mode the next turn must name: plan while on, default once after leaving it, else none. */
  modeToSend(threadKey: string): 'plan' | 'default' | undefined {
    const value = this.all[threadKey];
    return value === undefined ? undefined : value ? 'plan' : 'default';
  }

  /** A turn named the mode: a thread that left plan mode has nothing more to tell. */
  sent(threadKey: string, startedThreadId?: string): void {
    const { [threadKey]: value, ...others } = this.all;
    const next =
      value === true ? (startedThreadId ? { ...others, [startedThreadId]: true } : this.all) : others;
    this.host.saveState({ planning: next });
    this.changed.fire();
  }

  readonly subscribe = (listener: () => void) => {
    const subscription = this.changed.event(listener);
    return () => subscription.dispose();
  };
}

const modes = new WeakMap<Host, PlanModes>();

export function planModes(host: Host): PlanModes {
  let found = modes.get(host);
  if (!found) modes.set(host, (found = new PlanModes(host)));
  return found;
}

/** Whether this thread's composer is in plan mode ("" a new thread's), and a setter. */
export function usePlanMode(threadKey: string): [boolean, (on: boolean) => void] {
  const modes = planModes(useHost());
  const on = useSyncExternalStore(modes.subscribe, () => modes.isOn(threadKey));
  const set = useCallback((next: boolean) => modes.set(threadKey, next), [modes, threadKey]);
  return [on, set];
}
