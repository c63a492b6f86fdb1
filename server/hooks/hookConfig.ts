// Reads hook definitions in Codex's shape: an inline `[hooks]` table of config.toml or a hooks.json
// beside it, each event (PreToolUse, Stop, …) an array of matcher groups `{ matcher?, hooks = [...] }`
// whose handlers are `{ type = "command", command, timeout?, statusMessage?, async? }`. What cannot be
// used is reported (hooks/list shows it) and left out, never guessed at.
import { createHash } from 'node:crypto';
import { isPlainTable, type Table } from '../config/tomlFile';
import type { HookEventName, HookSource } from '../protocol/hooks';

/** The config keys of the events, as Codex spells them, and the protocol's names for them. */
export const EVENT_KEYS: Readonly<Record<string, HookEventName>> = {
  PreModelRequest: 'preModelRequest',
  PostModelRequest: 'postModelRequest',
  PreToolUse: 'preToolUse',
  PermissionRequest: 'permissionRequest',
  PostToolUse: 'postToolUse',
  PreCompact: 'preCompact',
  PostCompact: 'postCompact',
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  UserPromptSubmit: 'userPromptSubmit',
  SubagentStart: 'subagentStart',
  SubagentStop: 'subagentStop',
  Stop: 'stop',
  Interrupt: 'interrupt',
};

/** Codex's default for a command hook without `timeout`; also the most any hook may take. */
export const DEFAULT_TIMEOUT_SEC = 600;

export interface HookDefinition {
  /** Names this handler in its file: `<file>:<Event>[group].hooks[handler]`. */
  key: string;
  event: HookEventName;
  /** The config key of the event (`PreToolUse`), which a hook's input names. */
  eventKey: string;
  matcher: string | null;
  command: string;
  timeoutSec: number;
  statusMessage: string | null;
  async: boolean;
  source: Extract<HookSource, 'user' | 'project'>;
  sourcePath: string;
  displayOrder: number;
  /** sha256 of the file, the event, the matcher and the handler: what trust in a project hook covers. */
  hash: string;
}

export interface HookFileReading {
  hooks: HookDefinition[];
  warnings: string[];
  errors: { path: string; message: string }[];
}

/** The definitions of one file's hooks table (`[hooks]`, or hooks.json's `hooks`). */
export function hooksFromTable(
  table: unknown,
  file: string,
  source: HookDefinition['source'],
  firstOrder: number,
): HookFileReading {
  const reading: HookFileReading = { hooks: [], warnings: [], errors: [] };
  if (table === undefined) return reading;
  const error = (message: string) => reading.errors.push({ path: file, message });
  if (!isPlainTable(table)) {
    error('`hooks` must be a table of events');
    return reading;
  }
  for (const [eventKey, groups] of Object.entries(table)) {
    // Codex keeps per-hook enablement there; it is not an event.
    if (eventKey === 'state') continue;
    const event = EVENT_KEYS[eventKey];
    if (!event) {
      error(`hooks.${eventKey}: no such event (known: ${Object.keys(EVENT_KEYS).join(', ')})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      error(`hooks.${eventKey}: must be an array of { matcher, hooks } groups`);
      continue;
    }
    groups.forEach((group: unknown, g) => {
      const where = `hooks.${eventKey}[${g}]`;
      if (!isPlainTable(group) || !Array.isArray(group.hooks)) {
        error(`${where}: must be a table with a \`hooks\` array`);
        return;
      }
      const matcher = group.matcher ?? null;
      if (matcher !== null && typeof matcher !== 'string') {
        error(`${where}.matcher: must be a string`);
        return;
      }
      if (matcher !== null && !validMatcher(matcher)) {
        error(`${where}.matcher: "${matcher}" is not a valid regular expression`);
        return;
      }
      group.hooks.forEach((handler: unknown, h) => {
        const at = `${where}.hooks[${h}]`;
        const parsed = commandHandler(handler, at, file, reading);
        if (!parsed) return;
        const key = `${file}:${eventKey}[${g}].hooks[${h}]`;
        reading.hooks.push({
          key,
          event,
          eventKey,
          matcher,
          ...parsed,
          source,
          sourcePath: file,
          displayOrder: firstOrder + reading.hooks.length,
          hash: createHash('sha256')
            .update(JSON.stringify({ file, eventKey, matcher, handler: parsed }))
            .digest('hex'),
        });
      });
    });
  }
  return reading;
}

type Handler = Pick<HookDefinition, 'command' | 'timeoutSec' | 'statusMessage' | 'async'>;

function commandHandler(
  handler: unknown,
  at: string,
  file: string,
  reading: HookFileReading,
): Handler | null {
  const error = (message: string) => {
    reading.errors.push({ path: file, message: `${at}: ${message}` });
    return null;
  };
  if (!isPlainTable(handler)) return error('must be a table');
  if (handler.type !== 'command') {
    // prompt, agent and mcp_tool handlers are the reference's too; Threadline runs commands only.
    if (typeof handler.type === 'string') {
      reading.warnings.push(`${at}: "${handler.type}" hooks are not run by Threadline (only "command")`);
      return null;
    }
    return error('`type` must be "command"');
  }
  const command = platformCommand(handler);
  if (typeof command !== 'string' || command.trim() === '')
    return error('`command` must be a non-empty string');
  const timeout = handler.timeout ?? handler.timeoutSec ?? handler.timeout_sec ?? DEFAULT_TIMEOUT_SEC;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1)
    return error('`timeout` must be a whole number of seconds, at least 1');
  const statusMessage = handler.statusMessage ?? handler.status_message ?? null;
  if (statusMessage !== null && typeof statusMessage !== 'string')
    return error('`statusMessage` must be a string');
  if (handler.async !== undefined && typeof handler.async !== 'boolean')
    return error('`async` must be true or false');
  if (handler.async === true) reading.warnings.push(`${at}: async hooks run synchronously in Threadline`);
  return {
    command,
    timeoutSec: Math.min(timeout, DEFAULT_TIMEOUT_SEC),
    statusMessage,
    async: handler.async === true,
  };
}

/** On Windows a handler's `commandWindows` (or `command_windows`) replaces its `command`. */
function platformCommand(handler: Table): unknown {
  const windows = handler.commandWindows ?? handler.command_windows;
  return process.platform === 'win32' && typeof windows === 'string' ? windows : handler.command;
}

/** No matcher, "" and "*" match everything; anything else is a regular expression. */
function validMatcher(matcher: string): boolean {
  try {
    new RegExp(matcher);
    return true;
  } catch {
    return false;
  }
}

/** Whether a group's matcher takes one of these names (a tool's name and its aliases, an event's source). */
export function matches(matcher: string | null, names: readonly string[]): boolean {
  if (matcher === null || matcher === '' || matcher === '*') return true;
  const pattern = new RegExp(matcher);
  return names.some((name) => pattern.test(name));
}

/** `[hooks.state."<key>"] enabled = false` in the user's config turns one hook off. */
export function disabledKeys(userHooks: unknown): Set<string> {
  const state = isPlainTable(userHooks) && isPlainTable(userHooks.state) ? userHooks.state : {};
  return new Set(
    Object.entries(state)
      .filter(([, entry]) => isPlainTable(entry) && entry.enabled === false)
      .map(([key]) => key),
  );
}
