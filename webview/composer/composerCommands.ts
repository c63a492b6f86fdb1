// What the composer's `/` commands and the plan card's buttons do. A prompt file becomes the
// message; `/plan` enters plan mode (and sends what follows it); the rest call what the editor and
// the server already offer: New Thread, Choose Provider and Model, review/start, thread/compact/start,
// Undo changes, and the /status card. Implement leaves plan mode and continues the thread; Revise
// stays in it and hands the composer the focus.
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useHost } from '../components/hooks';
import { expandPrompt } from './customPrompts';
import { planModes } from './planMode';
import type { SlashItem } from './slashCommands';

/** A turn the composer sends other than its draft: a prompt file expanded, `/plan …`, Implement. */
export type Outgoing = { text: string; mode?: 'plan' | 'default'; keepDraft?: boolean };

export const IMPLEMENT_PROMPT = 'Implement the plan.';

export function useComposerCommands(options: {
  threadId: string | null;
  send: (outgoing?: Outgoing) => Promise<void>;
  setDraft: (text: string) => void;
  setError: (error: string | null) => void;
  setPlanning: (on: boolean) => void;
  input: RefObject<HTMLTextAreaElement | null>;
  /** The latest turn, once it has ended (what /undo undoes). */
  finishedTurnId: string | null;
}) {
  const host = useHost();
  const [statusOpen, setStatusOpen] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  const { threadId, setPlanning, input } = options;

  useEffect(() => {
    const subscription = planModes(host).actions.event(({ action, threadId: target }) => {
      if (target !== threadId) return;
      if (action === 'revise') {
        setPlanning(true);
        input.current?.focus();
        return;
      }
      setPlanning(false);
      void latest.current.send({ text: IMPLEMENT_PROMPT, mode: 'default', keepDraft: true });
    });
    return () => subscription.dispose();
  }, [host, threadId, setPlanning, input]);

  const runSlash = (item: SlashItem, args: string) => {
    const { send, setDraft, setError, finishedTurnId } = latest.current;
    setError(null);
    if (item.kind === 'prompt') {
      const expanded = expandPrompt(item.prompt, args);
      if ('error' in expanded) return setError(expanded.error);
      return void send({ text: expanded.text });
    }
    const needsThread = (what: string) => {
      if (!threadId) setError(`${what} works on a thread: open one or send a message first.`);
      return threadId;
    };
    const failed = (e: Error) => setError(e.message);
    setDraft('');
    switch (item.name) {
      case 'new':
      case 'model':
        return host.post({ type: 'runCommand', command: item.name === 'new' ? 'newThread' : 'chooseModel' });
      case 'plan':
        setPlanning(true);
        if (args) return void send({ text: args });
        return input.current?.focus();
      case 'status':
        return setStatusOpen(true);
      case 'review': {
        const id = needsThread('/review');
        if (id) host.request('startReview', { threadId: id, instructions: args }).catch(failed);
        return;
      }
      case 'compact': {
        const id = needsThread('/compact');
        if (id) host.request('compactThread', { threadId: id }).catch(failed);
        return;
      }
      case 'goal': {
        const id = needsThread('/goal');
        if (id) host.request('setGoal', { threadId: id, objective: args }).catch(failed);
        return;
      }
      case 'undo':
        if (!needsThread('/undo')) return;
        if (!finishedTurnId) return setError('/undo needs a finished turn to undo.');
        return host.post({ type: 'undoTurnChanges', turnId: finishedTurnId });
    }
  };

  return { runSlash, statusOpen, closeStatus: () => setStatusOpen(false) };
}
