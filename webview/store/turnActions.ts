// What Retry and Edit and resend work on, read from the conversation state. Pure. Both act on the last
// turn only, once it has ended: Retry resends a failed or interrupted turn's input as a new turn; Edit
// and resend takes the last turn's message back into the composer.
import type { UserInput } from '../../server/protocol/userInput';
import { isThreadItem } from '../../server/protocol/itemTypes';
import type { UserMessageItem } from '../../server/protocol/items';
import type { ConversationState, TurnView } from './state';

/** The input a failed or interrupted last turn was started with, to send again; else null. */
export function retryInput(state: ConversationState, turnId: string): UserInput[] | null {
  const turn = lastTurn(state);
  if (!turn || turn.id !== turnId) return null;
  if (turn.status !== 'failed' && turn.status !== 'interrupted') return null;
  return firstMessage(state, turn)?.content ?? null;
}

export interface EditableMessage {
  turnId: string;
  itemKey: string;
  /** The message's text, for the composer (images and mentions are not carried over). */
  text: string;
}

/** The last turn's message, when that turn has ended and said something in words; else null. */
export function editableMessage(state: ConversationState): EditableMessage | null {
  const turn = lastTurn(state);
  if (!turn || turn.status === 'inProgress') return null;
  const message = firstMessage(state, turn);
  if (!message) return null;
  const text = message.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
  return text ? { turnId: turn.id, itemKey: turn.itemKeys[message.index], text } : null;
}

function lastTurn(state: ConversationState): TurnView | undefined {
  return state.turns[state.turnIds[state.turnIds.length - 1] ?? ''];
}

/** The message that started the turn (later ones were steered in); a revert or compaction has none. */
function firstMessage(
  state: ConversationState,
  turn: TurnView,
): (UserMessageItem & { index: number }) | undefined {
  for (const [index, key] of turn.itemKeys.entries()) {
    const item = state.items[key];
    if (item && isThreadItem(item) && item.type === 'userMessage') return { ...item, index };
  }
  return undefined;
}
