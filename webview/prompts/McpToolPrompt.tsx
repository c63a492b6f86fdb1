// An MCP tool the agent wants to call, asked as an approval (the server's item/tool/requestUserInput
// approval question): which server and tool, with what arguments, and the same answers, labels and keys
// as a command's. The answer sent is the option's own label, as the question offered it.
import type { McpToolCallItem } from '../../server/protocol/mcp';
import { useItem } from '../components/hooks';
import { itemKey } from '../store/state';
import { ChoiceButtons, choiceKeys, PromptCard } from './PromptCard';
import type { Choice } from './decisions';
import type { CardProps } from './cardProps';

export function McpToolPrompt({
  prompt,
  position,
  answer,
  cardRef,
  choices,
}: CardProps<'userInput'> & { choices: Choice<string>[] }) {
  const [question] = prompt.params.questions;
  const item = useItem(itemKey(prompt.turnId, prompt.itemId)) as McpToolCallItem | undefined;
  const call = item?.type === 'mcpToolCall' ? item : undefined;
  const choose = (label: string) => answer(prompt.key, { answers: { [question!.id]: { answers: [label] } } });
  return (
    <PromptCard
      icon="tools"
      title={call ? `Run the MCP tool ${call.tool}?` : (question?.header ?? 'Run this MCP tool?')}
      position={position}
      keys={choiceKeys(choices, choose)}
      cardRef={cardRef}
      actions={<ChoiceButtons choices={choices} onChoose={choose} />}
    >
      {call && (
        <>
          <div className="tl-card-meta tl-muted">
            <span className="codicon codicon-server" aria-hidden="true" /> {call.server}
          </div>
          <pre className="tl-prompt-command" aria-label="Arguments">
            {JSON.stringify(call.arguments ?? {}, null, 2)}
          </pre>
        </>
      )}
      <p className="tl-prompt-reason">{question?.question}</p>
    </PromptCard>
  );
}
