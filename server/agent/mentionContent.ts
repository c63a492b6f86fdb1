// A `mention` input item naming a local path is context the user attached: the server reads it here,
// bounded, and the model sees it as a labelled, fenced block (contextBlock). `path#L10-20` is lines
// 10 to 20 of a file (an editor selection, a symbol), a plain file path the whole file, a folder
// path its listing. Reading stops at the bound: a 10 MB selection is not read past its first
// MAX_CONTENT_BYTES, a folder of 100,000 files not walked past MAX_FOLDER_ENTRIES.
import { createReadStream, promises as fs, type Stats } from 'node:fs';
import { extname, relative, resolve, sep } from 'node:path';
import { rootScope, walk } from '../search/gitignoreWalk';
import { contextBlock, sizeText } from './contextBlock';
import { UserInputError } from './userInputError';

export const MAX_CONTENT_BYTES = 100 * 1024;
export const MAX_FOLDER_ENTRIES = 500;

export interface LineRange {
  start: number;
  end: number;
}

/** `file#L10-20` (also `#L10-L20`, `#L10`): the file and its 1-based, inclusive line range. */
export function parseMentionPath(path: string): { file: string; lines?: LineRange } {
  const match = /^(.*)#L(\d+)(?:-L?(\d+))?$/.exec(path);
  if (!match) return { file: path };
  const start = Number(match[2]);
  const end = match[3] === undefined ? start : Number(match[3]);
  if (start < 1 || end < start)
    throw new UserInputError(`mention ${path}: the line range is not start ≤ end, from 1`);
  return { file: match[1]!, lines: { start, end } };
}

/** The text the model is shown for a local mention; the name is how the user's message called it. */
export async function mentionText(name: string, path: string, cwd: string): Promise<string> {
  // A file whose name really ends in `#L3` is that file, not a range of another.
  const whole = await statOf(resolve(cwd, path));
  const { file, lines } = whole ? { file: path, lines: undefined } : parseMentionPath(path);
  const absolute = resolve(cwd, file);
  const stat = whole ?? (await statOf(absolute));
  if (!stat) throw new UserInputError(`mention ${path}: no such file or folder`);
  const shown = displayPath(absolute, cwd);
  if (stat.isDirectory()) {
    if (lines) throw new UserInputError(`mention ${path}: a folder has no lines`);
    return folderText(name, absolute, shown);
  }
  if (!stat.isFile()) throw new UserInputError(`mention ${path}: not a file or folder`);
  return fileText(name, absolute, shown, stat.size, lines);
}

async function fileText(
  name: string,
  file: string,
  shown: string,
  size: number,
  lines: LineRange | undefined,
): Promise<string> {
  const read = await readLines(file, lines, MAX_CONTENT_BYTES);
  const what = !lines
    ? `The file ${shown}`
    : lines.start === lines.end
      ? `Line ${lines.start} of ${shown}`
      : `Lines ${lines.start}-${lines.end} of ${shown}`;
  const label = name && name !== shown ? `${what} (mentioned as "${name}")` : what;
  if (read.binary) return contextBlock({ label, body: `(a binary file of ${sizeText(size)}: not shown)` });
  let truncated: string | undefined;
  if (read.cut) {
    truncated = lines
      ? `only the first ${sizeText(MAX_CONTENT_BYTES)} of the range are shown, up to line ${read.lastLine}`
      : `only the first ${sizeText(MAX_CONTENT_BYTES)} of ${sizeText(size)} are shown, up to line ${read.lastLine}`;
  } else if (lines && read.lastLine < lines.end) {
    truncated = `the file has only ${read.lastLine} lines`;
  }
  return contextBlock({ label, body: read.text, language: languageOf(file), truncated });
}

/**
 * Lines `range` of the file (all of it when none), streamed: no more than `maxBytes` of them are
 * kept, and reading stops there. `lastLine` is the last line shown (or the file's last line).
 */
async function readLines(
  file: string,
  range: LineRange | undefined,
  maxBytes: number,
): Promise<{ text: string; cut: boolean; lastLine: number; binary: boolean }> {
  const start = range?.start ?? 1;
  const end = range?.end ?? Number.MAX_SAFE_INTEGER;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let line = 1;
  let cut = false;
  let binary = false;
  let sniffed = false;
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (!sniffed) {
        sniffed = true;
        // Like git: a NUL byte near the start means binary.
        if (chunk.subarray(0, 8000).includes(0)) {
          binary = true;
          break;
        }
      }
      let from = 0;
      // Walk the chunk line by line; keep the bytes of lines in the range.
      while (from < chunk.length && line <= end) {
        const newline = chunk.indexOf(0x0a, from);
        const to = newline < 0 ? chunk.length : newline + 1;
        if (line >= start) {
          const room = maxBytes - keptBytes;
          if (to - from > room) {
            kept.push(chunk.subarray(from, from + room));
            keptBytes += room;
            cut = true;
            break;
          }
          kept.push(chunk.subarray(from, to));
          keptBytes += to - from;
        }
        if (newline < 0) break;
        line++;
        from = to;
      }
      if (cut || line > end) break;
    }
  } catch (error) {
    throw new UserInputError(`mention ${file}: cannot read it (${(error as NodeJS.ErrnoException).code})`);
  } finally {
    stream.destroy();
  }
  let text = Buffer.concat(kept).toString('utf8');
  if (cut) {
    // Whole lines only: a line cut in two would read as the file's own text.
    const lineEnd = text.lastIndexOf('\n');
    if (lineEnd > 0) text = text.slice(0, lineEnd + 1);
    else text = text.replace(/\uFFFD$/, '');
  }
  const shownLines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const lastLine = start + shownLines - 1;
  return { text, cut, lastLine, binary };
}

/** A folder's listing as `git status` would see it (.gitignore honoured), shallow paths first, bounded. */
async function folderText(name: string, folder: string, shown: string): Promise<string> {
  const entries: string[] = [];
  let seen = 0;
  await walk(
    folder,
    '',
    rootScope,
    {
      onFolder: () => {},
      onEntry: (entry) => {
        seen++;
        if (entries.length < MAX_FOLDER_ENTRIES)
          entries.push(entry.isDirectory ? `${entry.path}/` : entry.path);
      },
    },
    () => seen > MAX_FOLDER_ENTRIES,
  );
  const label = `The listing of the folder ${shown}${name && name !== shown ? ` (mentioned as "${name}")` : ''}`;
  const truncated =
    seen > MAX_FOLDER_ENTRIES
      ? `only the first ${MAX_FOLDER_ENTRIES} entries are listed (shallowest first); the folder has at least ${seen}`
      : undefined;
  return contextBlock({ label, body: entries.length ? entries.join('\n') : '(empty)', truncated });
}

async function statOf(path: string): Promise<Stats | undefined> {
  return fs.stat(path).catch(() => undefined);
}

/** Inside the working directory: relative to it (what the model works with); else absolute. */
function displayPath(absolute: string, cwd: string): string {
  const inside = relative(cwd, absolute);
  if (!inside || inside.startsWith('..') || resolve(cwd, inside) !== absolute) return absolute;
  return inside.split(sep).join('/');
}

/** A fence info string from the extension; the model reads code better knowing its language. */
function languageOf(file: string): string | undefined {
  const ext = extname(file).slice(1).toLowerCase();
  return /^[a-z0-9+]{1,10}$/.test(ext) ? ext : undefined;
}
