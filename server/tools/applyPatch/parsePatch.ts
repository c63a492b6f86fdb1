// Parses the apply_patch envelope that OpenAI's coding models write:
//
//   *** Begin Patch
//   *** Add File: <path>        then lines starting with "+"
//   *** Delete File: <path>
//   *** Update File: <path>     then an optional "*** Move to: <path>" and chunks of
//                               "@@ [context]" / " context" / "-old" / "+new" lines,
//                               each optionally ended by "*** End of File"
//   *** End Patch
//
// Lenient where models are known to stray: markers padded with whitespace, CRLF line breaks, the
// whole patch wrapped in a shell heredoc (`<<'EOF' … EOF`), a first chunk without its "@@",
// several "@@ context" lines in a row to narrow the position, git-style "@@ -1,3 +1,4 @@" headers.
// It only reads text; whether the chunks fit the files is decided when the patch is planned.

/** One line of a chunk: kept (context), removed or added. */
export interface ChunkLine {
  op: ' ' | '-' | '+';
  text: string;
}

export interface UpdateChunk {
  /** Lines to find first, in order, each after the previous (usually a class or function line). */
  contexts: string[];
  lines: ChunkLine[];
  /** The lines the chunk replaces must be the last lines of the file. */
  endOfFile: boolean;
}

/** The lines a chunk expects in the file (context and removed), in order. */
export const oldSide = (lines: ChunkLine[]) => lines.filter((l) => l.op !== '+').map((l) => l.text);

export type PatchHunk =
  | { type: 'add'; path: string; contents: string }
  | { type: 'delete'; path: string }
  | { type: 'update'; path: string; movePath: string | null; chunks: UpdateChunk[] };

/** A patch that is not well formed; `line` is 1-based in the patch text, when one line is at fault. */
export class PatchSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number | null = null,
  ) {
    super(line === null ? `invalid patch: ${message}` : `invalid patch, line ${line}: ${message}`);
    this.name = 'PatchSyntaxError';
  }
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
// File markers without their trailing space, so "*** Add File:" with nothing after it is still
// recognised (and then reported as missing its path).
const ADD = '*** Add File:';
const DELETE = '*** Delete File:';
const UPDATE = '*** Update File:';
const MOVE = '*** Move to:';
const END_OF_FILE = '*** End of File';
const HEREDOC_START = /^(?:apply_patch\s+)?<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1$/;
const GIT_RANGE = /^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

export function parsePatch(text: string): PatchHunk[] {
  const all = text.trim().split(/\r?\n/);
  const { body, firstLine } = patchBody(all);
  const hunks: PatchHunk[] = [];
  let at = 0;
  while (at < body.length) {
    if (body[at].trim() === '') {
      at++;
      continue;
    }
    const { hunk, used } = parseHunk(body, at, firstLine);
    hunks.push(hunk);
    at += used;
  }
  return hunks;
}

/** The lines between the Begin and End markers, unwrapping a heredoc around them. */
function patchBody(lines: string[]): { body: string[]; firstLine: number } {
  const heredoc = HEREDOC_START.exec(lines[0]?.trim() ?? '');
  if (heredoc && lines.length >= 4 && lines[lines.length - 1].trim() === heredoc[2]) {
    return { body: checkMarkers(lines.slice(1, -1)), firstLine: 3 };
  }
  return { body: checkMarkers(lines), firstLine: 2 };
}

function checkMarkers(lines: string[]): string[] {
  if (lines[0]?.trim() !== BEGIN) throw new PatchSyntaxError(`the first line must be '${BEGIN}'`);
  if (lines.length < 2 || lines[lines.length - 1].trim() !== END) {
    throw new PatchSyntaxError(`the last line must be '${END}'`);
  }
  return lines.slice(1, -1);
}

/** Parses the hunk that starts at `body[at]`; `lineBase` maps body indexes to patch lines. */
function parseHunk(body: string[], at: number, lineBase: number): { hunk: PatchHunk; used: number } {
  const header = body[at].trim();
  const lineNo = at + lineBase;
  if (header.startsWith(ADD)) {
    const path = filePath(header, ADD, lineNo);
    let end = at + 1;
    let contents = '';
    while (end < body.length && body[end].startsWith('+')) contents += `${body[end++].slice(1)}\n`;
    return { hunk: { type: 'add', path, contents }, used: end - at };
  }
  if (header.startsWith(DELETE)) {
    return { hunk: { type: 'delete', path: filePath(header, DELETE, lineNo) }, used: 1 };
  }
  if (header.startsWith(UPDATE)) return parseUpdate(body, at, lineBase);
  throw new PatchSyntaxError(
    `'${header}' is not a file header; each file starts with '${ADD} <path>', '${DELETE} <path>' or '${UPDATE} <path>'`,
    lineNo,
  );
}

function filePath(header: string, marker: string, lineNo: number): string {
  const path = header.slice(marker.length).trim();
  if (!path) throw new PatchSyntaxError(`'${marker}' needs a path`, lineNo);
  return path;
}

function parseUpdate(body: string[], at: number, lineBase: number): { hunk: PatchHunk; used: number } {
  const path = filePath(body[at].trim(), UPDATE, at + lineBase);
  let i = at + 1;
  let movePath: string | null = null;
  if (body[i]?.trim().startsWith(MOVE)) {
    movePath = filePath(body[i].trim(), MOVE, i + lineBase);
    i++;
  }
  const chunks: UpdateChunk[] = [];
  while (i < body.length) {
    if (body[i].trim() === '') {
      i++;
      continue;
    }
    if (body[i].startsWith('*')) break;
    const parsed = parseChunk(body, i, lineBase, chunks.length === 0);
    chunks.push(parsed.chunk);
    i += parsed.used;
  }
  if (chunks.length === 0 && movePath === null) {
    throw new PatchSyntaxError(`'${UPDATE} ${path}' has no changes`, at + lineBase);
  }
  return { hunk: { type: 'update', path, movePath, chunks }, used: i - at };
}

function parseChunk(
  body: string[],
  at: number,
  lineBase: number,
  first: boolean,
): { chunk: UpdateChunk; used: number } {
  const chunk: UpdateChunk = { contexts: [], lines: [], endOfFile: false };
  let i = at;
  while (i < body.length && body[i].trimEnd().startsWith('@@')) {
    const context = contextOf(body[i]);
    if (context !== null) chunk.contexts.push(context);
    i++;
  }
  if (i === at && !first) {
    throw new PatchSyntaxError(`expected '@@' to start the next chunk, got '${body[at]}'`, at + lineBase);
  }
  const start = i;
  for (; i < body.length; i++) {
    const line = body[i];
    if (line.trim() === END_OF_FILE) {
      if (i === start) break;
      chunk.endOfFile = true;
      i++;
      break;
    }
    const sign = line[0];
    // An empty line is an empty context line whose leading space was trimmed away.
    if (line === '') chunk.lines.push({ op: ' ', text: '' });
    else if (sign === ' ' || sign === '-' || sign === '+')
      chunk.lines.push({ op: sign, text: line.slice(1) });
    else if (i === start) {
      throw new PatchSyntaxError(
        `unexpected line '${line}': every line of a chunk starts with ' ' (context), '-' (removed) or '+' (added)`,
        i + lineBase,
      );
    } else {
      break;
    }
  }
  if (chunk.lines.length === 0) {
    throw new PatchSyntaxError('a chunk has no lines', start + lineBase);
  }
  return { chunk, used: i - at };
}

/** The text after "@@", or null for a bare "@@" or a git-style line-number header. */
function contextOf(line: string): string | null {
  const rest = line.trimEnd().slice(2);
  if (rest.trim() === '') return null;
  const text = rest.startsWith(' ') ? rest.slice(1) : rest;
  return GIT_RANGE.test(text.trim()) ? null : text;
}
