// A review turn: the agent loop between an enteredReviewMode item (what is reviewed) and an
// exitedReviewMode item carrying the review text, which is also the model's final message.
import { randomUUID } from 'node:crypto';
import type { ReviewModeItem } from '../protocol/reviewItems';
import type { ActiveTurn } from './activeTurn';
import { runTurn, type TurnOutcome, type TurnSpec } from './turnLoop';

const ENDED: Record<Exclude<TurnOutcome['status'], 'completed'>, string> = {
  interrupted: 'The review was interrupted.',
  failed: 'The review failed.',
};

export function reviewRunner(label: string) {
  return async (spec: TurnSpec, active: ActiveTurn): Promise<TurnOutcome> => {
    const { emit } = active;
    const show = async (item: ReviewModeItem) => {
      emit.itemStarted(item);
      await emit.itemCompleted(item);
    };
    await show({ type: 'enteredReviewMode', id: randomUUID(), review: label });
    const outcome = await runTurn(spec, active);
    // The client entered review mode, so it always hears that it left.
    const review = outcome.status === 'completed' ? (outcome.finalMessage ?? '') : ENDED[outcome.status];
    await show({ type: 'exitedReviewMode', id: randomUUID(), review });
    return outcome;
  };
}
