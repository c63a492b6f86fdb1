// The items around a review turn: enteredReviewMode (what is reviewed, as a short label) and
// exitedReviewMode (the whole review text).
import { Type, type Static } from '@sinclair/typebox';

export const EnteredReviewModeItem = Type.Object({
  type: Type.Literal('enteredReviewMode'),
  id: Type.String(),
  review: Type.String(),
});
export const ExitedReviewModeItem = Type.Object({
  type: Type.Literal('exitedReviewMode'),
  id: Type.String(),
  review: Type.String(),
});
export type ReviewModeItem = Static<typeof EnteredReviewModeItem> | Static<typeof ExitedReviewModeItem>;
