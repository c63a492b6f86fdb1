// A file change the agent wants to make: its files with kind and +/- counts (from the fileChange item
// the request belongs to), the reason, "Open diff" for the editor's diff view, and the decisions.
import type { FileChangeApprovalDecision } from '../../server/protocol/serverRequests';
import { isThreadItem } from '../../server/protocol/itemTypes';
import { useHost, useItem, useView } from '../components/hooks';
import { FolderPath } from '../components/FolderPath';
import { countChange, FileSummary } from '../components/items/FileChange';
import { itemKey } from '../store/state';
import { ChoiceButtons, choiceKeys, PromptCard } from './PromptCard';
import { fileChoices } from './decisions';
import type { CardProps } from './cardProps';

export function FileChangePrompt({ prompt, position, answer, cardRef }: CardProps<'fileChange'>) {
  const host = useHost();
  const item = useItem(itemKey(prompt.turnId, prompt.itemId));
  const cwd = useView((s) => s.thread?.cwd);
  const changes = item && isThreadItem(item) && item.type === 'fileChange' ? item.changes : [];
  const choices = fileChoices();
  const choose = (decision: FileChangeApprovalDecision) => answer(prompt.key, { decision });
  const title = changes.length > 1 ? `Apply changes to ${changes.length} files?` : 'Apply this change?';
  return (
    <PromptCard
      icon="diff"
      title={title}
      position={position}
      keys={choiceKeys(choices, choose)}
      cardRef={cardRef}
      actions={
        <ChoiceButtons choices={choices} onChoose={choose}>
          <button
            type="button"
            tabIndex={-1}
            className="tl-button tl-secondary"
            onClick={() => host.post({ type: 'openPromptDiff', key: prompt.key })}
          >
            <span className="codicon codicon-diff" aria-hidden="true" /> Open diff
          </button>
        </ChoiceButtons>
      }
    >
      <ul className="tl-prompt-files" aria-label="Files">
        {changes.map((change, index) => {
          const { path, diff } = change;
          const kind = change.kind.type;
          const { added, removed } = countChange(kind, diff);
          return (
            <li key={index} className="tl-file-head">
              <FileSummary path={path} kind={kind} cwd={cwd} added={added} removed={removed} />
            </li>
          );
        })}
      </ul>
      {prompt.params.reason && <p className="tl-prompt-reason">{prompt.params.reason}</p>}
      {prompt.params.grantRoot && (
        <p className="tl-prompt-reason">
          Accept for session also allows writes under <FolderPath path={prompt.params.grantRoot} root={cwd} />
          .
        </p>
      )}
    </PromptCard>
  );
}
