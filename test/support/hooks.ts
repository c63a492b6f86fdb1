// Helpers for hook tests: Codex-shaped `[hooks]` tables, and the hook runs a server announced.
import type { HookRunSummary } from '../../server/protocol/hooks';
import type { MessageLog } from './messageLog';

/** One `[[hooks.<Event>]]` group with one command handler, as config.toml text. */
export function hookToml(
  event: string,
  command: string,
  options: { matcher?: string; timeout?: number } = {},
): string {
  return [
    '',
    `[[hooks.${event}]]`,
    ...(options.matcher !== undefined ? [`matcher = ${JSON.stringify(options.matcher)}`] : []),
    `[[hooks.${event}.hooks]]`,
    'type = "command"',
    `command = ${JSON.stringify(command)}`,
    `timeout = ${options.timeout ?? 20}`,
    '',
  ].join('\n');
}

/** The hook/completed runs of one turn, in order. */
export function completedRuns(server: MessageLog, turnId: string): HookRunSummary[] {
  return server
    .notifications('hook/completed')
    .map((m) => m.params as { turnId: string | null; run: HookRunSummary })
    .filter((p) => p.turnId === turnId)
    .map((p) => p.run);
}
