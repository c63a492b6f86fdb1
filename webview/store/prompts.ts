// The prompts of the shown thread (approvals and the agent's questions), as a pure reducer. The host
// sends the whole pending list on every change (it is a handful); a settled prompt stays a moment so
// its card can say how it ended, and once settled it never comes back as pending: a second answer is
// impossible from here.
import type { PromptOutcome, PromptResult, PromptView } from '../messages';

export interface SettledPrompt {
  prompt: PromptView;
  outcome: PromptOutcome;
}

export interface PromptState {
  threadId: string | null;
  /** Oldest first: the first is the one the card shows. */
  pending: PromptView[];
  settled: SettledPrompt[];
}

export const noPrompts: PromptState = { threadId: null, pending: [], settled: [] };

export type PromptAction =
  /** The view shows another thread, or none. */
  | { type: 'thread'; threadId: string | null }
  /** The host's list of pending prompts for a thread. */
  | { type: 'prompts'; threadId: string; prompts: PromptView[] }
  /** The host says how a prompt ended; its word wins over what this view assumed. */
  | { type: 'promptSettled'; threadId: string; key: string; outcome: PromptOutcome }
  /** The user answered here: the card shows the answer at once, before the host confirms it. */
  | { type: 'answered'; key: string; result: PromptResult }
  /** The outcome has been shown long enough. */
  | { type: 'dismiss'; key: string };

export function reducePrompts(state: PromptState, action: PromptAction): PromptState {
  switch (action.type) {
    case 'thread':
      return action.threadId === state.threadId ? state : { ...noPrompts, threadId: action.threadId };
    case 'prompts': {
      if (action.threadId !== state.threadId) return state;
      const settled = new Set(state.settled.map((s) => s.prompt.key));
      const pending = action.prompts
        .filter((p) => p.threadId === action.threadId && !settled.has(p.key))
        .sort((a, b) => a.receivedAt - b.receivedAt);
      return samePending(state.pending, pending) ? state : { ...state, pending };
    }
    case 'promptSettled': {
      if (action.threadId !== state.threadId) return state;
      const known = state.settled.findIndex((s) => s.prompt.key === action.key);
      if (known >= 0) {
        const settled = [...state.settled];
        settled[known] = { ...settled[known], outcome: action.outcome };
        return { ...state, settled };
      }
      return settle(state, action.key, action.outcome);
    }
    case 'answered':
      return settle(state, action.key, { answered: action.result });
    case 'dismiss': {
      const settled = state.settled.filter((s) => s.prompt.key !== action.key);
      return settled.length === state.settled.length ? state : { ...state, settled };
    }
  }
}

/** Moves a pending prompt to the settled ones; a prompt this view never saw pending is not shown. */
function settle(state: PromptState, key: string, outcome: PromptOutcome): PromptState {
  const prompt = state.pending.find((p) => p.key === key);
  if (!prompt) return state;
  return {
    ...state,
    pending: state.pending.filter((p) => p !== prompt),
    settled: [...state.settled, { prompt, outcome }],
  };
}

function samePending(a: PromptView[], b: PromptView[]): boolean {
  return a.length === b.length && a.every((p, i) => p.key === b[i].key);
}
