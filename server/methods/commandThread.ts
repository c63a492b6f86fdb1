// A user's own shell command in a thread (thread/shellCommand): it runs unsandboxed, as the user
// asked, shows as a commandExecution item with source userShell, and its output joins the model's
// history so the next request knows what the user ran. Also thread/backgroundTerminals/clean.
import type { TurnEmitter } from '../agent/turnEmitter';
import { commandActions } from '../exec/commandActions';
import { parseCommandLine } from '../exec/commandLine';
import type { ShellEnvironmentPolicy } from '../exec/commandEnv';
import { shellCommand, type CommandShell } from '../exec/shellSelection';
import { startCommand } from '../exec/startCommand';
import type { ParamsOf } from '../protocol/methods';
import type { ConversationEntry } from '../providers/types';
import type { HandlerTable } from '../rpc/dispatcher';
import type { Services } from '../services';
import { CommandItem } from '../tools/commandItem';
import { capForModel, DEFAULT_MAX_OUTPUT_TOKENS } from '../tools/execOutput';

export const DEFAULT_SHELL_TIMEOUT_MS = 60 * 60 * 1000;
const OUTPUT_CAP_BYTES = 1024 * 1024;

export async function runUserShell(
  emit: TurnEmitter,
  cwd: string,
  command: string,
  timeoutMs: number,
  signal: AbortSignal,
  environment: ShellEnvironmentPolicy,
  shell: CommandShell,
): Promise<ConversationEntry> {
  const item = new CommandItem(emit, {
    command,
    cwd,
    commandActions: commandActions(await parseCommandLine(command, shell.grammar), command),
    source: 'userShell',
  });
  item.start();
  const { process: running } = await startCommand({
    ...shellCommand(shell, command),
    cwd,
    policy: null,
    availability: { kind: 'none', reason: 'user shell commands run unsandboxed' },
    environment,
    outputCapBytes: OUTPUT_CAP_BYTES,
    timeoutMs,
    onText: (text) => item.delta(text),
  });
  const kill = () => running.kill();
  signal.addEventListener('abort', kill, { once: true });
  const exit = await running.exited;
  signal.removeEventListener('abort', kill);
  const output = exit.spawnError ?? running.output.text();
  await item.complete({
    status: exit.exitCode === 0 ? 'completed' : 'failed',
    exitCode: exit.exitCode,
    durationMs: exit.durationMs,
    aggregatedOutput: output,
  });
  const text = [
    'The user ran a shell command:',
    `$ ${command}`,
    `Exit code: ${exit.exitCode}${exit.timedOut ? ' (timed out)' : ''}`,
    'Output:',
    capForModel(output, DEFAULT_MAX_OUTPUT_TOKENS),
  ].join('\n');
  return { kind: 'user', content: [{ type: 'text', text }] };
}

export function backgroundTerminalHandlers(services: Services): HandlerTable {
  return {
    'thread/backgroundTerminals/clean': async (params: ParamsOf<'thread/backgroundTerminals/clean'>) => {
      (await services.store()).require(params.threadId);
      const stopped = services.loaded.get(params.threadId)?.commands.clean(params.threadId) ?? 0;
      services.log.info(`thread ${params.threadId}: stopped ${stopped} background terminal(s)`);
      return {};
    },
  };
}
