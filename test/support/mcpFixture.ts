// The stdio MCP fixture (test/fixtures/mcpServer/stdio.ts) as config.toml sees it, for the server
// tests: a `[mcp_servers.<name>]` table, scripted model turns that call a tool, and the questions the
// server asked before calling one.
import { join } from 'node:path';
import { PROJECT_SERVER_TRUST_QUESTION } from '../../server/protocol/mcpTrust';
import type { Incoming } from './messageLog';
import { repoRoot } from './paths';
import type { ServerProcess } from './serverProcess';

/** The stdio MCP server the tests run (with `node --import tsx`). */
export const FIXTURE = join(repoRoot, 'test', 'fixtures', 'mcpServer', 'stdio.ts');

/** Stands for the folder where the fixture's tools leave markers; `withMarkers` fills it in. */
export const MARKERS = '@MARKERS@';

/**
 * A `[mcp_servers.<name>]` table running the stdio fixture in `mode`. The server learns where to
 * leave its markers through the config's `env`: it inherits no other variable of ours.
 */
export function stdioServer(
  name: string,
  mode = 'normal',
  extra: string[] = [],
  env: Record<string, string> = {},
): string {
  const vars = Object.entries({ MCP_FIXTURE_MARKERS: MARKERS, ...env }).map(
    ([k, v]) => `${k} = ${JSON.stringify(v)}`,
  );
  return [
    `[mcp_servers.${name}]`,
    `command = ${JSON.stringify(process.execPath)}`,
    `args = ${JSON.stringify(['--import', 'tsx', FIXTURE, name, mode])}`,
    `cwd = ${JSON.stringify(repoRoot)}`,
    `env = { ${vars.join(', ')} }`,
    ...extra,
    '',
  ].join('\n');
}

/** A scripted model turn that calls one tool. */
export const toolCall = (name: string, args: unknown, callId: string) => ({
  output: [{ toolCall: { name, arguments: JSON.stringify(args), callId } }],
});

/** The item/tool/requestUserInput requests the server sent (requests, not notifications). */
export const questionsAsked = (s: ServerProcess) =>
  s.received.filter((m) => m.method === 'item/tool/requestUserInput' && m.id !== undefined).length;

/** The next question the server asks in `turnId` (a project or plugin server's trust, say). */
export const trustQuestion = (s: ServerProcess, turnId: string): Promise<Incoming> =>
  s.next(
    (m: Incoming) =>
      m.method === 'item/tool/requestUserInput' &&
      m.id !== undefined &&
      (m.params as { turnId: string }).turnId === turnId,
  );

/** Answers a trust question with one of its choices. */
export const answerTrust = (s: ServerProcess, asked: Incoming, choice: string): void =>
  s.send({ id: asked.id, result: { answers: { [PROJECT_SERVER_TRUST_QUESTION]: { answers: [choice] } } } });

/** The names of the tools offered in the model's `i`th request. */
export const offeredTools = (model: { requests: { body: unknown }[] }, i: number): string[] =>
  ((model.requests[i]!.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
