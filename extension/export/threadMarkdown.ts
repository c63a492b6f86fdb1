// A thread as a Markdown document: prompts, answers, commands with their output folded in <details>,
// file changes as diffs. Everything in a thread (prompts, the model's answers, command output, paths)
// is data, not markup: it is quoted, fenced or escaped so no text can end the block it sits in, fake
// a heading of the document, or smuggle in HTML. Pure: no editor, no I/O.
import type { ThreadItem } from '../../server/protocol/items';
import type { Thread, Turn } from '../../server/protocol/thread';
import type { UserInput } from '../../server/protocol/userInput';
import { plainText } from '../../webview/common/plainText';

export type ExportedThread = Pick<Thread, 'id' | 'name' | 'preview' | 'cwd' | 'model' | 'createdAt'> & {
  turns: Turn[];
};

export function threadMarkdown(thread: ExportedThread): string {
  const title = (thread.name?.trim() || thread.preview.trim() || 'Untitled thread').replace(/\s+/g, ' ');
  const facts = [
    `Thread ${code(thread.id)}`,
    `in ${code(thread.cwd)}`,
    ...(thread.model ? [`model ${code(thread.model)}`] : []),
    `started ${new Date(thread.createdAt * 1000).toISOString()}`,
  ];
  const blocks = [`# ${inline(title)}`, facts.join(' · ')];
  thread.turns.forEach((turn, index) => blocks.push(...turnBlocks(turn, index + 1, thread.cwd)));
  return `${blocks.join('\n\n')}\n`;
}

function turnBlocks(turn: Turn, n: number, cwd: string): string[] {
  const ended = turn.status === 'completed' ? '' : ` (${turn.status})`;
  const blocks = [`## Turn ${n}${ended}`];
  for (const item of turn.items) {
    const block = itemBlock(item, cwd);
    if (block) blocks.push(block);
  }
  if (turn.error) blocks.push(quote(`**Error:** ${inline(turn.error.message)}`, false));
  return blocks;
}

function itemBlock(item: ThreadItem, cwd: string): string | undefined {
  switch (item.type) {
    case 'userMessage':
      return `**You**\n\n${quote(item.content.map(userInputText).join('\n\n'))}`;
    case 'agentMessage':
      return `**Threadline**\n\n${quote(item.text)}`;
    case 'plan':
      return `**Plan**\n\n${quote(item.text)}`;
    case 'commandExecution':
      return commandBlock(item, cwd);
    case 'fileChange':
      return fileChangeBlock(item, cwd);
    case 'mcpToolCall':
      return `**Tool** ${code(`${item.server}.${item.tool}`)} (${item.status})`;
    case 'dynamicToolCall':
      return `**Tool** ${code(item.tool)} (${item.status})`;
    case 'imageView':
      return `**Viewed image** ${code(item.path)}`;
    case 'enteredReviewMode':
      return `**Review:** ${inline(item.review)}`;
    case 'exitedReviewMode':
      return `**Review**\n\n${quote(item.review)}`;
    case 'contextCompaction':
      return '*The context was compacted here.*';
    case 'reasoning':
      return undefined;
    default:
      // A newer server's item type: named, its content left out.
      return `*${inline(String((item as { type: unknown }).type))} item*`;
  }
}

function userInputText(input: UserInput): string {
  switch (input.type) {
    case 'text':
      return input.text;
    case 'image':
      return `[image ${input.url.startsWith('data:') ? '(inline)' : input.url}]`;
    case 'localImage':
      return `[image ${input.path}]`;
    case 'skill':
      return `[skill ${input.name}]`;
    case 'mention':
      return `[mention ${input.name}: ${input.path}]`;
  }
}

function commandBlock(item: Extract<ThreadItem, { type: 'commandExecution' }>, cwd: string): string {
  const facts: string[] = [item.status];
  if (typeof item.exitCode === 'number') facts.push(`exit ${item.exitCode}`);
  if (typeof item.durationMs === 'number') facts.push(`${(item.durationMs / 1000).toFixed(1)} s`);
  // The thread's folder is named at the top; a command run elsewhere says where.
  const where = item.cwd === cwd ? '' : ` in ${code(within(cwd, item.cwd))}`;
  const head = `**Ran**${where} (${facts.join(', ')})\n\n${fence(item.command, 'sh')}`;
  const output = plainText(item.aggregatedOutput ?? '');
  if (!output) return head;
  const lines = output.replace(/\n$/, '').split('\n').length;
  const summary = `Output (${lines} line${lines === 1 ? '' : 's'})`;
  return `${head}\n\n<details><summary>${summary}</summary>\n\n${fence(output, 'text')}\n\n</details>\n`;
}

function fileChangeBlock(item: Extract<ThreadItem, { type: 'fileChange' }>, cwd: string): string {
  const files = item.changes.map((change) => {
    const kind = change.kind;
    const moved = kind.type === 'update' && kind.move_path ? ` → ${code(within(cwd, kind.move_path))}` : '';
    return `${kind.type === 'add' ? 'Added' : kind.type === 'delete' ? 'Deleted' : 'Changed'} ${code(within(cwd, change.path))}${moved}\n\n${fence(asDiff(change.kind.type, change.diff), 'diff')}`;
  });
  return [`**Changed files** (${item.status})`, ...files].join('\n\n');
}

/** A path under the thread's folder as relative to it (the folder is named at the top); others whole. */
function within(cwd: string, path: string): string {
  const folder = cwd.replace(/[\\/]+$/, '');
  const rest = path.slice(folder.length);
  return path.startsWith(folder) && /^[\\/]/.test(rest) ? rest.slice(1) : path;
}

/** An added file's diff is its content and a deleted one's its old content: both shown as lines of a diff. */
function asDiff(kind: 'add' | 'delete' | 'update', diff: string): string {
  if (kind === 'update') return diff;
  const sign = kind === 'add' ? '+' : '-';
  return diff
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => sign + line)
    .join('\n');
}

/**
 * Text as a blockquote, every line prefixed: whatever it holds (headings, an unclosed code fence,
 * `</details>`) ends with the quote. Markdown in it still renders; HTML outside code does not.
 */
export function quote(text: string, escapeHtml = true): string {
  const body = escapeHtml ? withoutHtml(plainText(text)) : plainText(text);
  return body
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** `<` outside code spans and fenced blocks becomes `&lt;`: no tag, comment or raw HTML block survives. */
export function withoutHtml(text: string): string {
  let fenceOpen: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fenceOpen) {
        if (marker && marker[0] === fenceOpen[0] && marker.length >= fenceOpen.length) fenceOpen = null;
        return line;
      }
      if (marker) {
        fenceOpen = marker;
        return line;
      }
      // Split into code spans (kept) and prose (escaped): a span is a run of backticks up to the same run.
      return line.replace(/(`+)([\s\S]*?[^`])\1(?!`)|([^`]+|`+)/g, (whole, _ticks, _code, prose) =>
        prose === undefined ? whole : prose.replace(/&/g, '&amp;').replace(/</g, '&lt;'),
      );
    })
    .join('\n');
}

/** Text fenced with a fence longer than any run of backticks in it, so it cannot close the block. */
export function fence(text: string, language: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${language}\n${text.replace(/\n$/, '')}\n${ticks}`;
}

/** Text as an inline code span, whatever backticks it holds. */
export function code(text: string): string {
  const flat = plainText(text).replace(/\n/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat.trim() === '' ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** One line of text with every Markdown punctuation character escaped: it renders as itself. */
export function inline(text: string): string {
  return plainText(text)
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_{}[\]()<>#+\-.!|~&"']/g, (c) => `\\${c}`);
}
