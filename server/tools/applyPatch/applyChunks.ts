// Applies the chunks of one "*** Update File:" section to a file's lines. Every chunk is located
// first (each after the previous one), then all are replaced, so a chunk that does not fit leaves
// nothing half done; its error says what was looked for and where, for the model to retry.
import { oldSide, type ChunkLine, type UpdateChunk } from './parsePatch';
import { seekLines } from './seekLines';

/** A chunk that does not fit the file; the message is written for the model. */
export class ChunkMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChunkMismatchError';
  }
}

interface Replacement {
  start: number;
  lines: ChunkLine[];
}

export function applyChunks(fileLines: string[], chunks: UpdateChunk[], displayPath: string): string[] {
  const replacements: Replacement[] = [];
  let cursor = 0;
  chunks.forEach((chunk, index) => {
    const where = chunks.length > 1 ? `chunk ${index + 1} of ${displayPath}` : displayPath;
    for (const context of chunk.contexts) {
      const found = seekLines(fileLines, [context], cursor, false);
      if (found < 0) {
        throw new ChunkMismatchError(
          `${where}: the context line '${context}' was not found${afterLine(cursor)}. Read the file again and use a line that is in it.`,
        );
      }
      cursor = found + 1;
    }
    const replacement = locate(fileLines, chunk, cursor, where);
    replacements.push(replacement);
    cursor = replacement.start + oldSide(replacement.lines).length;
  });
  const result = [...fileLines];
  for (const { start, lines } of replacements.reverse()) {
    // Context lines keep the file's own text: a fuzzy match must not rewrite their whitespace.
    let at = start;
    const replaced: string[] = [];
    for (const line of lines) {
      if (line.op === '+') replaced.push(line.text);
      else if (line.op === ' ') replaced.push(fileLines[at++]);
      else at++;
    }
    result.splice(start, at - start, ...replaced);
  }
  return result;
}

function locate(fileLines: string[], chunk: UpdateChunk, cursor: number, where: string): Replacement {
  let lines = chunk.lines;
  // Only additions: after the "@@ context" line when one was given, else at the end of the file.
  if (oldSide(lines).length === 0) {
    return { start: chunk.contexts.length > 0 ? cursor : fileLines.length, lines };
  }
  let start = seekLines(fileLines, oldSide(lines), cursor, chunk.endOfFile);
  // A trailing empty context line often stands for the file's final line break: retry without it.
  const last = lines[lines.length - 1];
  if (start < 0 && last.op === ' ' && last.text === '' && oldSide(lines).length > 1) {
    lines = lines.slice(0, -1);
    start = seekLines(fileLines, oldSide(lines), cursor, chunk.endOfFile);
  }
  if (start < 0) {
    const expected = oldSide(chunk.lines)
      .map((line) => `  ${line}`)
      .join('\n');
    throw new ChunkMismatchError(
      `${where}: these lines were not found${afterLine(cursor)}${chunk.endOfFile ? ' at the end of the file' : ''}:\n${expected}\nRead the file again and copy the lines to change (with their context) exactly.`,
    );
  }
  return { start, lines };
}

function afterLine(cursor: number): string {
  return cursor > 0 ? ` after line ${cursor}` : '';
}
