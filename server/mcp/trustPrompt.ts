// The one-time question before a project's own MCP server starts (or its hook runs): it names the
// file and exactly what would run (or be reached), and only an explicit "Trust and start" counts as yes.
import type { ApprovalGate } from '../agent/approvalGate';
import { describeTransport } from '../config/mcpServers';
import { DISTRUST_ANSWER, PROJECT_SERVER_TRUST_QUESTION, TRUST_ANSWER } from '../protocol/mcpTrust';
import type { NamedCode } from './namedCode';
import type { ProjectServer } from './projectServers';

export async function askToTrust(
  gate: ApprovalGate,
  turn: { threadId: string; turnId: string },
  server: ProjectServer,
  code: NamedCode,
): Promise<boolean> {
  const { name, transport } = server.config;
  const what =
    transport.type === 'stdio'
      ? `runs \`${describeTransport(transport)}\` in ${transport.cwd}, outside the sandbox`
      : `connects to ${transport.url}`;
  return askTrustQuestion(gate, turn, {
    itemId: `mcp-trust-${server.fingerprint.slice(0, 16)}`,
    header: 'MCP server',
    question: `${server.file} defines the MCP server "${name}", which ${what}.${coverage(code)} Start it and offer its tools to the agent? Trust it only if you know what it does.`,
    trusted: 'Remember this exact definition and the files it names; a change asks again.',
    declined: 'Do not start it; asked again after a reload.',
  });
}

/**
 * Puts one trust question (project MCP servers', project hooks') to the user; only an explicit
 * "Trust and start" counts as yes. The question's id is the one the extension declines by itself in
 * a folder VS Code does not trust.
 */
export async function askTrustQuestion(
  gate: ApprovalGate,
  turn: { threadId: string; turnId: string },
  ask: { itemId: string; header: string; question: string; trusted: string; declined: string },
): Promise<boolean> {
  const answer = await gate.ask(
    'item/tool/requestUserInput',
    {
      ...turn,
      itemId: ask.itemId,
      questions: [
        {
          id: PROJECT_SERVER_TRUST_QUESTION,
          header: ask.header,
          question: ask.question,
          isOther: false,
          isSecret: false,
          options: [
            { label: TRUST_ANSWER, description: ask.trusted },
            { label: DISTRUST_ANSWER, description: ask.declined },
          ],
        },
      ],
      isBlocking: true,
    },
    'waitingOnApproval',
  );
  if (!answer.answered) return false;
  const answers = (answer.result as { answers?: Record<string, { answers?: unknown }> } | null)?.answers;
  const chosen =
    answers && Object.hasOwn(answers, PROJECT_SERVER_TRUST_QUESTION)
      ? answers[PROJECT_SERVER_TRUST_QUESTION]?.answers
      : null;
  return Array.isArray(chosen) && chosen[0] === TRUST_ANSWER;
}

/** What the trust will and will not cover beyond the definition's words. */
function coverage({ files, unpinned }: NamedCode): string {
  const covered = files.length
    ? ` Trust covers the content of ${files.map((f) => `\`${f}\``).join(', ')} as it is now (not what they load); a change asks again.`
    : '';
  const loose = unpinned.length
    ? ` Unpinned: ${unpinned.map((u) => `\`${u}\``).join(', ')} runs whatever version the registry serves when it starts, which trust does not cover; pin an exact version to fix what runs.`
    : '';
  return covered + loose;
}
