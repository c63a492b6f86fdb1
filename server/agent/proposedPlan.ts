// In plan mode the model writes its plan inside <proposed_plan>…</proposed_plan> in its answer.
// This splits streamed text into what stays in the message and what belongs to the plan, as the
// deltas arrive: a tag cut between two deltas is held back until it is whole or ruled out.

export type PlanSegment =
  | { kind: 'text'; text: string }
  | { kind: 'planStart' }
  | { kind: 'plan'; text: string }
  | { kind: 'planEnd' };

const OPEN = '<proposed_plan>';
const CLOSE = '</proposed_plan>';

export class ProposedPlanSplitter {
  private inPlan = false;
  private held = '';

  push(delta: string): PlanSegment[] {
    const out: PlanSegment[] = [];
    let text = this.held + delta;
    this.held = '';
    for (;;) {
      const tag = this.inPlan ? CLOSE : OPEN;
      const at = text.indexOf(tag);
      if (at === -1) break;
      this.emit(out, text.slice(0, at));
      out.push(this.inPlan ? { kind: 'planEnd' } : { kind: 'planStart' });
      this.inPlan = !this.inPlan;
      text = text.slice(at + tag.length);
    }
    const keep = partialTagAtEnd(text, this.inPlan ? CLOSE : OPEN);
    this.held = text.slice(text.length - keep);
    this.emit(out, text.slice(0, text.length - keep));
    return out;
  }

  /** The end of the message: held text was not a tag after all, and an open plan ends here. */
  end(): PlanSegment[] {
    const out: PlanSegment[] = [];
    this.emit(out, this.held);
    this.held = '';
    if (this.inPlan) out.push({ kind: 'planEnd' });
    this.inPlan = false;
    return out;
  }

  private emit(out: PlanSegment[], text: string): void {
    if (text) out.push({ kind: this.inPlan ? 'plan' : 'text', text });
  }
}

/** How many characters at the end of `text` could be the start of `tag`. */
function partialTagAtEnd(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
