// Files the agent changed: per file its path, kind, +/− counts, a short diff preview and "Open diff".
import type { FileChangeItem } from '../../../server/protocol/fileChange';
import { useHost, useView } from '../hooks';
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

/** An added or deleted file's change carries the file's content, not a diff. */
export function countChange(kind: string, diff: string): { added: number; removed: number } {
  const lines = diff.replace(/\n$/, '').split('\n').length;
  if (kind === 'add') return { added: diff ? lines : 0, removed: 0 };
  if (kind === 'delete') return { added: 0, removed: diff ? lines : 0 };
  return countDiff(diff);
}

function previewOf(kind: string, diff: string): string[] {
  const lines = diff.replace(/\n$/, '').split('\n');
  if (kind === 'add' || kind === 'delete')
    return diff ? lines.map((l) => `${kind === 'add' ? '+' : '-'}${l}`) : [];
  return lines.filter((l) => /^[+-](?![+-]{2})/.test(l) || l.startsWith('@@'));
}

/** The path as the user knows it: relative to the thread's folder when it is inside it. */
export function shortPath(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const root = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return path.startsWith(root) ? path.slice(root.length) : path;
}

/** One changed file in a line: its kind, its path as the user knows it, lines added and removed. */
export function FileSummary(props: {
  path: string;
  kind: string;
  cwd?: string;
  added: number;
  removed: number;
}) {
  return (
    <>
      <span className={`tl-kind tl-kind-${props.kind}`}>{props.kind}</span>
      <span className="tl-path" title={props.path}>
        {shortPath(props.path, props.cwd)}
      </span>
      <span className="tl-added">+{props.added}</span>
      <span className="tl-removed">−{props.removed}</span>
    </>
  );
}

export function FileChange({ item }: { item: FileChangeItem }) {
  const host = useHost();
  const cwd = useView((s) => s.thread?.cwd);
  const changes = item.changes;
  return (
    <div className="tl-item tl-card tl-file-change">
      <div className="tl-card-title">
        <span className="codicon codicon-diff" aria-hidden="true" />{' '}
        {changes.length === 1 ? 'Changed 1 file' : `Changed ${changes.length} files`}
        <StatusBadge status={item.status} />
      </div>
      {changes.map((change, index) => {
        const { path, diff } = change;
        const kind = change.kind.type;
        const movePath = change.kind.type === 'update' ? change.kind.move_path : undefined;
        const { added, removed } = countChange(kind, diff);
        const preview = previewOf(kind, diff);
        return (
          <div key={index} className="tl-file">
            <div className="tl-file-head">
              <FileSummary path={path} kind={kind} cwd={cwd} added={added} removed={removed} />
              <button
                type="button"
                className="tl-link-button"
                aria-label={`Open diff of ${path}`}
                onClick={() =>
                  host.post({ type: 'openFileDiff', path, kind, diff, ...(movePath && { movePath }) })
                }
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
