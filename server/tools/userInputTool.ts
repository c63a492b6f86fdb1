// request_user_input: in plan mode the model may stop and ask the user a few short questions,
// each with suggested answers. The questions go to the client as the item/tool/requestUserInput
// server request (experimental); the answers, as the client sends them, go back to the model.
import { parseArguments, ToolInputError, type AgentTool } from '../agent/tool';
import type { ToolRequestUserInputQuestion } from '../protocol/toolCallItems';

const MAX_QUESTIONS = 3;

export const requestUserInputTool: AgentTool = {
  spec: {
    kind: 'function',
    name: 'request_user_input',
    description:
      'Asks the user one to three short questions and waits for the answers. Use it when a decision is theirs to make; offer two or three mutually exclusive options per question, the recommended one first. The user may also answer in their own words.',
    parameters: {
      type: 'object',
      properties: {
        questions: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string', description: 'A stable snake_case identifier for the answer.' },
              header: { type: 'string', description: 'A label of at most 12 characters.' },
              question: { type: 'string', description: 'One sentence.' },
              options: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    label: { type: 'string', description: 'One to five words.' },
                    description: { type: 'string', description: 'What choosing it means, in one sentence.' },
                  },
                  required: ['label', 'description'],
                  additionalProperties: false,
                },
              },
            },
            required: ['id', 'header', 'question', 'options'],
            additionalProperties: false,
          },
        },
      },
      required: ['questions'],
      additionalProperties: false,
    },
  },

  async run(call, { threadId, turnId, approvals }) {
    const questions = readQuestions(parseArguments(call).questions);
    const answer = await approvals.ask(
      'item/tool/requestUserInput',
      { threadId, turnId, itemId: call.callId, questions, isBlocking: true },
      'waitingOnUserInput',
    );
    if (!answer.answered) {
      return { output: `request_user_input got no answer: ${answer.message}`, isError: true };
    }
    return { output: JSON.stringify(answer.result) };
  },
};

function readQuestions(value: unknown): ToolRequestUserInputQuestion[] {
  const usage = `request_user_input needs \`questions\`: 1 to ${MAX_QUESTIONS} of {id, header, question, options: [{label, description}]}`;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_QUESTIONS)
    throw new ToolInputError(usage);
  return value.map((entry: unknown) => {
    const q = (entry ?? {}) as Record<string, unknown>;
    const options = Array.isArray(q.options) ? q.options : [];
    const valid =
      typeof q.id === 'string' &&
      typeof q.header === 'string' &&
      typeof q.question === 'string' &&
      options.every((o) => typeof o?.label === 'string' && typeof o?.description === 'string');
    if (!valid) throw new ToolInputError(usage);
    return {
      id: q.id as string,
      header: q.header as string,
      question: q.question as string,
      // Clients offer a free-form answer besides the options, as the reference asks them to.
      isOther: true,
      isSecret: false,
      options: options.map((o: { label: string; description: string }) => ({
        label: o.label,
        description: o.description,
      })),
    };
  });
}
