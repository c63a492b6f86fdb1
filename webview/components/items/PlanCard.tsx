// The plan a turn in plan mode proposed, as a card. On the thread's latest turn, once it ended, it
// offers the two ways on: Implement (leave plan mode and carry the plan out, in the same thread) and
// Revise (stay in plan mode and say what to change in the composer).
import type { PlanItem } from '../../../server/protocol/items';
import { planModes } from '../../composer/planMode';
import { useHost, useView } from '../hooks';
import { Markdown } from '../Markdown';

export function PlanCard({ item, turnId }: { item: PlanItem; turnId: string }) {
  const host = useHost();
  const threadId = useView((s) => s.thread?.id ?? null);
  const actionable = useView((s) => {
    const last = s.turnIds[s.turnIds.length - 1];
    return last === turnId && s.turns[last]?.status !== 'inProgress';
  });
  const act = (action: 'implement' | 'revise') =>
    threadId && planModes(host).actions.fire({ action, threadId });
  return (
    <div className="tl-item tl-card tl-plan-card">
      <div className="tl-card-title">
        <span className="codicon codicon-checklist" aria-hidden="true" /> Plan
      </div>
      <Markdown text={item.text} />
      {actionable && threadId && (
        <div className="tl-plan-actions">
          <button type="button" className="tl-button" onClick={() => act('implement')}>
            <span className="codicon codicon-play" aria-hidden="true" /> Implement
          </button>
          <button type="button" className="tl-button tl-secondary" onClick={() => act('revise')}>
            <span className="codicon codicon-edit" aria-hidden="true" /> Revise
          </button>
        </div>
      )}
    </div>
  );
}
