// What full-text search reads of a thread: the text of its user messages, agent messages and the
// command lines it ran, per turn, so a match can name the turn it is in.
import type { Turn } from '../protocol/thread';

export interface TurnText {
  turnId: string;
  text: string;
}

export function turnTexts(turns: Turn[]): TurnText[] {
  return turns.map((turn) => ({
    turnId: turn.id,
    text: turn.items
      .map((item) => {
        switch (item.type) {
          case 'userMessage':
            return item.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
          case 'agentMessage':
            return item.text;
          case 'commandExecution':
            return item.command;
          default:
            return '';
        }
      })
      .filter(Boolean)
      .join('\n'),
  }));
}

/** Words as the index sees them: letters and digits (any script), lower-cased. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** Whether the text holds the query's words one after the other (case and spacing aside). */
export function hasPhrase(text: string, query: string): boolean {
  const terms = words(query);
  return terms.length > 1 && words(text).join(' ').includes(terms.join(' '));
}

/**
 * The turn that best matches and a line of its text around the match: the first turn holding the
 * whole phrase, else the one holding most of the query's words.
 */
export function bestMatch(texts: TurnText[], query: string): { turnId: string; snippet: string } | null {
  const terms = words(query);
  if (terms.length === 0) return null;
  const phrase = terms.join(' ');
  let best: { turnId: string; score: number; at: number; text: string } | null = null;
  for (const { turnId, text } of texts) {
    const flat = text.replace(/\s+/g, ' ');
    const lower = flat.toLowerCase();
    const phraseAt = lower.indexOf(phrase);
    const found = terms.filter((term) => lower.includes(term));
    const score = phraseAt >= 0 ? terms.length + 1 : found.length;
    if (score > 0 && (!best || score > best.score)) {
      const at = phraseAt >= 0 ? phraseAt : lower.indexOf(found[0]!);
      best = { turnId, score, at, text: flat };
    }
  }
  return best && { turnId: best.turnId, snippet: around(best.text, best.at) };
}

const SNIPPET_CHARS = 120;

function around(text: string, at: number): string {
  const start = Math.max(0, at - SNIPPET_CHARS / 3);
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  const from = start > 0 ? text.indexOf(' ', start) + 1 || start : 0;
  return `${from > 0 ? '…' : ''}${text.slice(from, end).trim()}${end < text.length ? '…' : ''}`;
}
