// Text put into the composer from elsewhere in the page (an example prompt, Edit and resend on the last
// message): it replaces the draft and the composer takes the focus. While a message is being edited, a
// line above the input says that sending replaces the last turn, with Cancel.
import { useEffect, useState, type RefObject } from 'react';
import { useStore } from '../components/hooks';

export interface ComposerEdit {
  /** The turn sending replaces (Edit and resend), or null for an ordinary send. */
  editTurnId: string | null;
  cancel(): void;
}

export function useComposerFill(
  setDraft: (text: string) => void,
  input: RefObject<HTMLTextAreaElement | null>,
  /** The shown thread's last turn: an edit of any other turn is over (a new turn came). */
  lastTurnId: string | undefined,
): ComposerEdit {
  const store = useStore();
  const [editTurnId, setEditTurnId] = useState<string | null>(null);
  useEffect(() => {
    const subscription = store.onComposerFill((fill) => {
      setDraft(fill.text);
      setEditTurnId(fill.editTurnId ?? null);
      const el = input.current;
      el?.focus();
      el?.setSelectionRange(fill.text.length, fill.text.length);
    });
    return () => subscription.dispose();
  }, [store, setDraft, input]);
  useEffect(() => {
    if (editTurnId && editTurnId !== lastTurnId) setEditTurnId(null);
  }, [editTurnId, lastTurnId]);
  return { editTurnId, cancel: () => setEditTurnId(null) };
}

export function EditingNotice({ edit, onCancel }: { edit: ComposerEdit; onCancel: () => void }) {
  if (!edit.editTurnId) return null;
  return (
    <div className="tl-editing" role="status">
      <span className="codicon codicon-edit" aria-hidden="true" />
      <span className="tl-editing-text">Editing your last message: sending replaces that turn.</span>
      <button type="button" className="tl-link-button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
