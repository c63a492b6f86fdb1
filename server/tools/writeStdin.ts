// write_stdin: feeds characters to a command session that exec_command left running, and returns
// what it printed since the last look (an empty `chars` only polls).
import { parseArguments, ToolInputError, type AgentTool } from '../agent/tool';
import type { CommandSessions } from '../exec/commandSessions';
import { CommandItem } from './commandItem';
import { waitForExit, MIN_YIELD_MS } from './execCommand';
import { boundedInteger, DEFAULT_MAX_OUTPUT_TOKENS, reportForModel } from './execOutput';

const DEFAULT_YIELD_MS = 250;
const MAX_POLL_MS = 300_000;

export function writeStdinTool(sessions: CommandSessions): AgentTool {
  return {
    spec: {
      kind: 'function',
      name: 'write_stdin',
      description:
        'Writes characters to the stdin of a running exec_command session and returns its new output. Empty chars polls.',
      parameters: {
        type: 'object',
        properties: {
          session_id: { type: 'number', description: 'The session ID exec_command returned.' },
          chars: { type: 'string', description: 'Characters to write (may be empty).' },
          yield_time_ms: { type: 'number', description: 'How long to wait for output before returning.' },
          max_output_tokens: { type: 'number', description: 'Most output tokens to return.' },
        },
        required: ['session_id'],
      },
    },
    async run(call, context) {
      const args = parseArguments(call);
      const id = Number(args.session_id);
      const session = Number.isInteger(id) ? sessions.get(context.threadId, id) : undefined;
      if (!session)
        throw new ToolInputError(`write_stdin: no session ${String(args.session_id)} in this thread`);
      const chars = typeof args.chars === 'string' ? args.chars : '';
      // A session may be one a default-mode turn started (a shell): in plan mode it is only watched.
      if (chars && context.permissions.planning)
        throw new ToolInputError(
          'write_stdin only polls in plan mode (empty chars): typing could change things',
        );
      if (chars && !session.process.running) {
        throw new ToolInputError(`write_stdin: session ${id} has ended; its input is closed`);
      }
      const started = Date.now();
      if (chars) session.process.write(chars);
      const yieldMs = boundedInteger(args.yield_time_ms, DEFAULT_YIELD_MS, MIN_YIELD_MS, MAX_POLL_MS);
      const exit = session.process.running
        ? await waitForExit(session.process, yieldMs, context.signal)
        : await session.process.exited;
      if (exit) await session.settled;
      const output = sessions.takeUnread(session);
      if (exit) sessions.forget(session);
      const item = new CommandItem(context.emit, {
        command: session.command,
        cwd: session.cwd,
        commandActions: [{ type: 'unknown', command: session.command }],
        source: 'unifiedExecInteraction',
        processId: String(session.id),
      });
      item.start();
      await item.complete({
        status: exit && exit.exitCode !== 0 ? 'failed' : 'completed',
        exitCode: exit?.exitCode ?? null,
        durationMs: Date.now() - started,
        aggregatedOutput: output,
      });
      return {
        output: reportForModel({
          notes: [],
          wallMs: Date.now() - started,
          exitCode: exit?.exitCode ?? null,
          sessionId: session.id,
          output,
          maxOutputTokens: boundedInteger(args.max_output_tokens, DEFAULT_MAX_OUTPUT_TOKENS, 1, 1_000_000),
        }),
      };
    },
  };
}
