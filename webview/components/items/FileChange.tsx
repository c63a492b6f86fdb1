// Files the agent changed: per file its path, kind, +/− counts, a short diff preview and "Open diff".
import type { AnyItem } from '../../store/state';
import { list, str } from '../fields';
import { useHost } from '../hooks';
import { StatusBadge } from './status';

const previewLines = 8;

export function countDiff(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

export function FileChange({ item }: { item: AnyItem }) {
  const host = useHost();
  const changes = list(item, 'changes');
  return (
    <div className="tl-item tl-card tl-file-change">
      <div className="tl-card-title">
        <span className="codicon codicon-diff" aria-hidden="true" />{' '}
        {changes.length === 1 ? 'Changed 1 file' : `Changed ${changes.length} files`}
        <StatusBadge status={str(item, 'status')} />
      </div>
      {changes.map((change, index) => {
        const path = str(change, 'path') ?? '';
        const diff = str(change, 'diff') ?? '';
        const kind = str((change.kind ?? {}) as Record<string, unknown>, 'type') ?? 'update';
        const { added, removed } = countDiff(diff);
        const preview = diff.split('\n').filter((l) => /^[+-](?![+-]{2})/.test(l) || l.startsWith('@@'));
        return (
          <div key={index} className="tl-file">
            <div className="tl-file-head">
              <span className={`tl-kind tl-kind-${kind}`}>{kind}</span>
              <span className="tl-path" title={path}>
                {path}
              </span>
              <span className="tl-added">+{added}</span>
              <span className="tl-removed">−{removed}</span>
              <button
                type="button"
                className="tl-link-button"
                aria-label={`Open diff of ${path}`}
                onClick={() => host.post({ type: 'openFileDiff', path, kind, diff })}
              >
                Open diff
              </button>
            </div>
            {preview.length > 0 && (
              <pre className="tl-diff">
                {preview.slice(0, previewLines).map((line, i) => (
                  <div
                    key={i}
                    className={
                      line.startsWith('+')
                        ? 'tl-diff-add'
                        : line.startsWith('-')
                          ? 'tl-diff-del'
                          : 'tl-diff-hunk'
                    }
                  >
                    {line}
                  </div>
                ))}
                {preview.length > previewLines && (
                  <div className="tl-muted">… {preview.length - previewLines} more lines</div>
                )}
              </pre>
            )}
          </div>
        );
      })}
    </div>
  );
}
