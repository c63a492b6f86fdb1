// Codex's own shapes, as its rollouts store them, turned into ours: a turn item (`item_completed`
// events: PascalCase types, snake_case fields) into a protocol ThreadItem, and a Responses API item
// (`response_item` lines) into an entry of the model's conversation. Everything is read from a file
// another program wrote: each field is checked before it is used, and a shape we do not know gives
// undefined rather than a guess.
import type { ThreadItem } from '../protocol/items';
import type { CommandAction, CommandExecutionStatus } from '../protocol/commandExecution';
import type { FileUpdateChange } from '../protocol/fileChange';
import type { UserInput } from '../protocol/userInput';
import type { ContentPart, ConversationEntry } from '../providers/types';
import type { ModelEntry } from './records';

type Fields = Record<string, unknown>;
export const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const int = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const STATUSES = new Set(['inProgress', 'completed', 'failed', 'declined']);
const status = (value: unknown): CommandExecutionStatus =>
  STATUSES.has(value as string) ? (value as CommandExecutionStatus) : 'completed';

const SOURCES = {
  agent: 'agent',
  user_shell: 'userShell',
  unified_exec_startup: 'unifiedExecStartup',
  unified_exec_interaction: 'unifiedExecInteraction',
} as const;

/** A protocol item for one of Codex's turn items; undefined for kinds Threadline has no shape for. */
export function codexTurnItem(item: unknown): ThreadItem | undefined {
  if (!isObject(item)) return undefined;
  const id = str(item.id);
  if (id === undefined) return undefined;
  switch (item.type) {
    case 'UserMessage':
      return { type: 'userMessage', id, content: list(item.content).flatMap(userInput) };
    case 'AgentMessage': {
      const text = list(item.content)
        .map((part) => (isObject(part) ? (str(part.text) ?? '') : ''))
        .join('');
      const phase = item.phase === 'commentary' || item.phase === 'final_answer' ? item.phase : null;
      return { type: 'agentMessage', id, text, phase };
    }
    case 'Reasoning':
      return {
        type: 'reasoning',
        id,
        summary: list(item.summary_text).filter((s): s is string => typeof s === 'string'),
        content: list(item.raw_content).filter((s): s is string => typeof s === 'string'),
      };
    case 'Plan':
      return { type: 'plan', id, text: str(item.text) ?? '' };
    case 'ContextCompaction':
      return { type: 'contextCompaction', id };
    case 'CommandExecution':
      return commandItem(id, item);
    case 'FileChange':
      return fileChangeItem(id, item);
    case 'ImageView': {
      const path = str(item.path);
      return path === undefined ? undefined : { type: 'imageView', id, path: fromFileUri(path) };
    }
    default:
      return undefined;
  }
}

function userInput(part: unknown): UserInput[] {
  if (!isObject(part)) return [];
  const text = str(part.text);
  if (part.type === 'text' && text !== undefined) return [{ type: 'text', text }];
  const url = str(part.image_url);
  if (part.type === 'image' && url !== undefined) return [{ type: 'image', url }];
  const path = str(part.path);
  if (part.type === 'local_image' && path !== undefined) return [{ type: 'localImage', path }];
  const name = str(part.name);
  if (part.type === 'skill' && name !== undefined && path !== undefined)
    return [{ type: 'skill', name, path }];
  return [];
}

/** Codex keeps some paths as file:// URIs. */
function fromFileUri(path: string): string {
  if (!path.startsWith('file://')) return path;
  try {
    return decodeURIComponent(new URL(path).pathname);
  } catch {
    return path;
  }
}

/** The command line as the user would type it: the script of `bash -lc SCRIPT`, else the words joined. */
function commandLine(argv: string[]): string {
  if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2]!;
  return argv
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

function commandAction(parsed: unknown): CommandAction[] {
  if (!isObject(parsed)) return [];
  const command = str(parsed.cmd) ?? '';
  const path = str(parsed.path) ?? null;
  switch (parsed.type) {
    case 'read':
      return [{ type: 'read', command, name: str(parsed.name) ?? '', path: path ?? '' }];
    case 'list_files':
      return [{ type: 'listFiles', command, path }];
    case 'search':
      return [{ type: 'search', command, query: str(parsed.query) ?? null, path }];
    default:
      return [{ type: 'unknown', command }];
  }
}

function commandItem(id: string, item: Fields): ThreadItem {
  const argv = list(item.command).filter((w): w is string => typeof w === 'string');
  const duration = isObject(item.duration) ? item.duration : undefined;
  const durationMs = duration
    ? (int(duration.secs) ?? 0) * 1000 + Math.round((int(duration.nanos) ?? 0) / 1e6)
    : null;
  const source = SOURCES[item.source as keyof typeof SOURCES];
  return {
    type: 'commandExecution',
    id,
    command: commandLine(argv),
    cwd: fromFileUri(str(item.cwd) ?? ''),
    commandActions: list(item.parsed_cmd).flatMap(commandAction),
    status: status(item.status),
    ...(source ? { source } : {}),
    processId: str(item.process_id) ?? null,
    aggregatedOutput: str(item.aggregated_output) ?? null,
    exitCode: int(item.exit_code),
    durationMs,
  };
}

function fileChange(path: string, change: unknown): FileUpdateChange[] {
  if (!isObject(change)) return [];
  if (change.type === 'add' || change.type === 'delete') {
    return [{ path, kind: { type: change.type }, diff: str(change.content) ?? '' }];
  }
  if (change.type !== 'update') return [];
  return [
    {
      path,
      kind: { type: 'update', move_path: str(change.move_path) ?? null },
      diff: str(change.unified_diff) ?? '',
    },
  ];
}

function fileChangeItem(id: string, item: Fields): ThreadItem {
  const changes = Object.entries(isObject(item.changes) ? item.changes : {}).flatMap(([path, change]) =>
    fileChange(path, change),
  );
  return { type: 'fileChange', id, changes, status: status(item.status) };
}

/** Messages Codex's harness puts in the model's history (its instructions and context), not the user's. */
const HARNESS_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<permissions',
];

/**
 * An entry of the model's conversation for one Responses item; undefined for what our agent does not
 * replay: Codex's developer messages and the context it injects (our agent sends its own), and
 * item kinds it has no entry for.
 */
export function codexModelEntry(item: unknown): ModelEntry | undefined {
  const entry = conversationEntry(item);
  return entry && { ...entry };
}

function conversationEntry(item: unknown): ConversationEntry | undefined {
  if (!isObject(item)) return undefined;
  switch (item.type) {
    case 'message': {
      const parts = list(item.content).flatMap(contentPart);
      const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
      if (item.role === 'assistant') return { kind: 'assistant', text };
      if (item.role !== 'user' || HARNESS_PREFIXES.some((prefix) => text.trimStart().startsWith(prefix))) {
        return undefined;
      }
      return { kind: 'user', content: parts };
    }
    case 'reasoning': {
      const texts = (value: unknown) =>
        list(value).flatMap((part) => (isObject(part) && typeof part.text === 'string' ? [part.text] : []));
      const encrypted = str(item.encrypted_content);
      const providerItemId = str(item.id);
      return {
        kind: 'reasoning',
        summary: texts(item.summary),
        content: texts(item.content),
        ...(encrypted ? { encryptedContent: encrypted } : {}),
        ...(providerItemId ? { providerItemId } : {}),
      };
    }
    case 'function_call':
    case 'custom_tool_call': {
      const callId = str(item.call_id);
      const name = str(item.name);
      const custom = item.type === 'custom_tool_call';
      const args = str(custom ? item.input : item.arguments);
      if (!callId || !name || args === undefined) return undefined;
      return { kind: 'toolCall', callId, name, arguments: args, custom };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const callId = str(item.call_id);
      if (!callId) return undefined;
      const output = toolOutput(item.output);
      return { kind: 'toolResult', callId, output, custom: item.type === 'custom_tool_call_output' };
    }
    default:
      return undefined;
  }
}

function contentPart(part: unknown): ContentPart[] {
  if (!isObject(part)) return [];
  const text = str(part.text);
  if ((part.type === 'input_text' || part.type === 'output_text') && text !== undefined)
    return [{ type: 'text', text }];
  const url = str(part.image_url);
  if (part.type === 'input_image' && url !== undefined) return [{ type: 'image', url }];
  return [];
}

/** A tool's output: text, a list of content items, or (older rollouts) an object with `content`. */
function toolOutput(output: unknown): string | ContentPart[] {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.flatMap(contentPart);
  if (isObject(output) && typeof output.content === 'string') return output.content;
  return JSON.stringify(output ?? '');
}
