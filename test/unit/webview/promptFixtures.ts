// Pending prompts for the webview's tests, with params shaped as the server's requests are.
import type { PromptView } from '../../../webview/messages';
import { threadId } from './conversationFixtures';

const ref = (key: string, receivedAt: number) => ({
  key,
  threadId,
  turnId: 't1',
  itemId: `item-${key}`,
  receivedAt,
});
const request = (key: string) => ({ threadId, turnId: 't1', itemId: `item-${key}`, startedAtMs: 1 });

export function commandPrompt(
  key: string,
  receivedAt = 1,
  extra: Partial<Extract<PromptView, { kind: 'commandExecution' }>['params']> = {},
): PromptView {
  return {
    ...ref(key, receivedAt),
    kind: 'commandExecution',
    params: {
      ...request(key),
      command: 'npm test',
      cwd: '/work/demo',
      reason: 'Run the tests to check the fix',
      commandActions: [{ type: 'unknown', command: 'npm test' }],
      ...extra,
    },
  };
}

export function filePrompt(key: string, itemId: string, receivedAt = 1): PromptView {
  return {
    ...ref(key, receivedAt),
    itemId,
    kind: 'fileChange',
    params: { ...request(key), itemId, reason: 'Write the notes' },
  };
}

export function questionPrompt(key: string, receivedAt = 1): PromptView {
  return {
    ...ref(key, receivedAt),
    kind: 'userInput',
    params: {
      threadId,
      turnId: 't1',
      itemId: `item-${key}`,
      isBlocking: true,
      questions: [
        {
          id: 'db',
          header: 'Database',
          question: 'Which database should the app use?',
          isOther: true,
          options: [
            { label: 'SQLite', description: 'A file next to the app' },
            { label: 'Postgres', description: 'A server' },
          ],
        },
        { id: 'token', header: 'Token', question: 'The deploy token?', isSecret: true, options: null },
      ],
    },
  };
}
