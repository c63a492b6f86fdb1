// Items with little to show: an image the agent looked at, review mode, context compaction, and the
// generic card for item types this build does not know (the protocol grows).
import type { ReviewModeItem } from '../../../server/protocol/reviewItems';
import type { ImageViewItem } from '../../../server/protocol/toolCallItems';
import type { AnyItem } from '../../store/state';
import { useHost } from '../hooks';
import { json } from './ToolCall';

export function ImageView({ item }: { item: ImageViewItem }) {
  const host = useHost();
  const { path } = item;
  return (
    <div className="tl-item tl-card">
      <span className="codicon codicon-file-media" aria-hidden="true" /> Viewed image{' '}
      <button type="button" className="tl-link-button" onClick={() => host.post({ type: 'openFile', path })}>
        {path}
      </button>
    </div>
  );
}

export function ReviewMode({ item }: { item: ReviewModeItem }) {
  const entered = item.type === 'enteredReviewMode';
  return (
    <div className="tl-item tl-divider">
      <span className="codicon codicon-eye" aria-hidden="true" />{' '}
      {entered ? 'Review started' : 'Review finished'}
      {item.review && <div className="tl-muted">{item.review}</div>}
    </div>
  );
}

export function ContextCompaction() {
  return (
    <div className="tl-item tl-divider">
      <span className="codicon codicon-fold" aria-hidden="true" /> Context compacted: earlier turns were
      summarized
    </div>
  );
}

export function GenericCard({ item }: { item: AnyItem }) {
  return (
    <details className="tl-item tl-card tl-generic">
      <summary>
        <span className="codicon codicon-symbol-misc" aria-hidden="true" /> {item.type}
      </summary>
      <pre className="tl-json">{json(item)}</pre>
    </details>
  );
}
