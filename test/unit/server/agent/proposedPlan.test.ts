import { strict as assert } from 'node:assert';
import { ProposedPlanSplitter, type PlanSegment } from '../../../../server/agent/proposedPlan';

/** Feeds the deltas, then folds the segments into the message text, the plans and the event order. */
function split(deltas: string[]) {
  const splitter = new ProposedPlanSplitter();
  const segments: PlanSegment[] = [...deltas.flatMap((d) => splitter.push(d)), ...splitter.end()];
  let text = '';
  const plans: string[] = [];
  const order: string[] = [];
  for (const s of segments) {
    if (s.kind === 'text') text += s.text;
    if (s.kind === 'planStart') plans.push('');
    if (s.kind === 'plan') plans[plans.length - 1] += s.text;
    if (order[order.length - 1] !== s.kind) order.push(s.kind);
  }
  return { text, plans, order };
}

const MESSAGE = 'Here is the plan.\n<proposed_plan>\n1. Read\n2. Change\n</proposed_plan>\nShall I go ahead?';

describe('ProposedPlanSplitter', () => {
  it('leaves text without a plan untouched, even when it looks like a tag at a delta boundary', () => {
    assert.deepEqual(split(['a <prop', 'osal> b <', '/p']), {
      text: 'a <proposal> b </p',
      plans: [],
      order: ['text'],
    });
  });

  it('moves the block into a plan, with the tags cut at every possible place', () => {
    for (let cut = 1; cut < MESSAGE.length; cut++) {
      const result = split([MESSAGE.slice(0, cut), MESSAGE.slice(cut)]);
      assert.equal(result.text, 'Here is the plan.\n\nShall I go ahead?', `cut at ${cut}`);
      assert.deepEqual(result.plans, ['\n1. Read\n2. Change\n'], `cut at ${cut}`);
    }
  });

  it('streams one character at a time in order: text, plan, text', () => {
    const result = split([...MESSAGE]);
    assert.deepEqual(result.order, ['text', 'planStart', 'plan', 'planEnd', 'text']);
  });

  it('ends a plan the message never closed', () => {
    const result = split(['<proposed_plan>step one', ' <']);
    assert.deepEqual(result.plans, ['step one <']);
    assert.deepEqual(result.order, ['planStart', 'plan', 'planEnd']);
  });
});
