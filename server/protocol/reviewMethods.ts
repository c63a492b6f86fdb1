// review/start: the reviewer looks at a set of changes and reports findings, as a turn of its own
// that shows enteredReviewMode and exitedReviewMode items around the review.
import { Type, type Static } from '@sinclair/typebox';
import { Opt, Params, Shape, StringEnum } from './schema';
import { Turn } from './thread';

export const ReviewTarget = Type.Union([
  Type.Object({ type: Type.Literal('uncommittedChanges') }),
  Type.Object({ type: Type.Literal('baseBranch'), branch: Type.String({ minLength: 1 }) }),
  Type.Object({
    type: Type.Literal('commit'),
    sha: Type.String({ minLength: 1 }),
    title: Opt(Type.String()),
  }),
  Type.Object({ type: Type.Literal('custom'), instructions: Type.String({ minLength: 1 }) }),
]);
export type ReviewTarget = Static<typeof ReviewTarget>;

export const ReviewStartParams = Params({
  threadId: Type.String(),
  target: ReviewTarget,
  /** `detached` (documented by the spec, not in the schema) reviews in a fork of the thread. */
  delivery: Opt(StringEnum(['inline', 'detached'])),
});
export const ReviewStartResponse = Shape({ turn: Turn, reviewThreadId: Type.String() });
