// A command the agent ran: the command line, where, its live output (the last lines, all on demand),
// exit code, duration and status.
import { useState } from 'react';
import type { CommandExecutionItem } from '../../../server/protocol/commandExecution';
import { plainText } from '../../common/plainText';
import { FolderPath } from '../FolderPath';
import { useHost, useView } from '../hooks';
import { StatusBadge } from './status';

/** Output lines shown while collapsed; a long build log stays one glance high. */
export const outputTailLines = 12;

export function CommandExecution({ item }: { item: CommandExecutionItem }) {
  const [showAll, setShowAll] = useState(false);
  const host = useHost();
  const threadId = useView((s) => s.thread?.id);
  const root = useView((s) => s.thread?.cwd);
  // Colours belong to a terminal (Show in Terminal keeps them); here they would show as escape codes.
  const output = plainText(item.aggregatedOutput ?? '');
  const lines = output.replace(/\n$/, '').split('\n');
  const hidden = showAll ? 0 : Math.max(0, lines.length - outputTailLines);
  const exitCode = item.exitCode ?? undefined;
  return (
    <div className="tl-item tl-card tl-command">
      <div className="tl-card-title">
        <span className="codicon codicon-terminal" aria-hidden="true" />
        <code className="tl-command-line">{item.command}</code>
      </div>
      <div className="tl-card-meta">
        <StatusBadge status={item.status} durationMs={item.durationMs ?? undefined} />
        {exitCode !== undefined && (
          <span className={exitCode === 0 ? '' : 'tl-error-text'}>exit {exitCode}</span>
        )}
        <span className="tl-muted">
          <FolderPath path={item.cwd} root={root} />
        </span>
        {threadId && (
          <button
            type="button"
            className="tl-link-button tl-command-terminal"
            title="Show this command's output in a terminal, live while it runs"
            onClick={() => host.post({ type: 'showInTerminal', threadId, item })}
          >
            <span className="codicon codicon-terminal" aria-hidden="true" /> Show in Terminal
          </button>
        )}
      </div>
      {output && (
        <div className="tl-terminal" role="log" aria-label="Command output">
          {hidden > 0 && (
            <button type="button" className="tl-link-button" onClick={() => setShowAll(true)}>
              Show all {lines.length} lines
            </button>
          )}
          <pre>{lines.slice(hidden).join('\n')}</pre>
        </div>
      )}
    </div>
  );
}
