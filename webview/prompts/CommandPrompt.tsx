// A command the agent wants to run: the command, where, why, what it will do, and the decisions. A
// command that needs the network is asked about as network access to a host.
import type { CommandExecutionRequestApprovalParams } from '../../server/protocol/serverRequests';
import { useView } from '../components/hooks';
import { AnswerRules, ChoiceButtons, choiceKeys, PromptCard, WorkingFolder } from './PromptCard';
import { commandChoices, describeActions, networkTarget } from './decisions';
import type { CardProps } from './cardProps';

export function CommandPrompt({ prompt, position, answer, cardRef }: CardProps<'commandExecution'>) {
  const params: CommandExecutionRequestApprovalParams = prompt.params;
  const choices = commandChoices(params);
  const choose = (decision: (typeof choices)[number]['decision']) => answer(prompt.key, { decision });
  const network = params.networkApprovalContext;
  const actions = describeActions(params.commandActions);
  const root = useView((s) => s.thread?.cwd);
  return (
    <PromptCard
      icon={network ? 'globe' : 'terminal'}
      title={network ? `Allow network access to ${networkTarget(network)}?` : 'Run this command?'}
      position={position}
      keys={choiceKeys(choices, choose)}
      cardRef={cardRef}
      actions={<ChoiceButtons choices={choices} onChoose={choose} />}
    >
      {params.command && (
        <pre className="tl-prompt-command" aria-label="Command">
          {params.command}
        </pre>
      )}
      {params.cwd && <WorkingFolder path={params.cwd} root={root} />}
      {params.reason && <p className="tl-prompt-reason">{params.reason}</p>}
      {actions.length > 0 && (
        <ul className="tl-prompt-actions" aria-label="What it will do">
          {actions.map((text, i) => (
            <li key={i}>{text}</li>
          ))}
        </ul>
      )}
      <AnswerRules choices={choices} />
    </PromptCard>
  );
}
