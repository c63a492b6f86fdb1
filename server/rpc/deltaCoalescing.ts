// Which notifications continue one another, so that several waiting for a slow client can go out as
// one: each appends a piece of text to one stream (an item's text, a reasoning part, a process's
// stdout), and one notification carrying the joined pieces says exactly what they said together.
import type { NotificationMethod, NotificationParamsOf } from '../protocol/methods';

type Params = Record<string, unknown>;

export interface DeltaRule {
  /** The stream a delta appends to; deltas of the same stream may be joined. */
  stream(params: Params): string;
  /** The field carrying the appended piece. */
  field: string;
  join(pieces: string[]): string;
}

const joinText = (pieces: string[]) => pieces.join('');
// Base64 pieces cannot be joined as text (each may end in padding): decode, join, encode again.
const joinBase64 = (pieces: string[]) =>
  Buffer.concat(pieces.map((piece) => Buffer.from(piece, 'base64'))).toString('base64');

const itemText = (extra?: string): DeltaRule & { field: 'delta' } => ({
  stream: (p) =>
    `${String(p.threadId)}\u0000${String(p.turnId)}\u0000${String(p.itemId)}\u0000${extra ? String(p[extra]) : ''}`,
  field: 'delta',
  join: joinText,
});

// Typed by method so that a renamed delta notification or field fails to compile here.
type Fields<N extends NotificationMethod> = keyof NotificationParamsOf<N> & string;
const rules: { [N in NotificationMethod]?: DeltaRule & { field: Fields<N> } } = {
  'item/agentMessage/delta': itemText(),
  'item/plan/delta': itemText(),
  'item/reasoning/textDelta': itemText('contentIndex'),
  'item/reasoning/summaryTextDelta': itemText('summaryIndex'),
  'item/commandExecution/outputDelta': itemText(),
  'item/fileChange/outputDelta': itemText(),
  // capReached is true only on a stream's last piece; the joined notification takes the last
  // piece's other fields, so it keeps that.
  'command/exec/outputDelta': {
    stream: (p) => `${String(p.processId)}\u0000${String(p.stream)}`,
    field: 'deltaBase64',
    join: joinBase64,
  },
};

export function deltaRule(method: string): DeltaRule | undefined {
  return Object.hasOwn(rules, method) ? rules[method as NotificationMethod] : undefined;
}
