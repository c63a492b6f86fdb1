// A text file as lines, remembering what a patch must not disturb: its line breaks (CRLF or LF, by
// majority), a byte-order mark, and whether it ends with a line break.

export interface TextFile {
  /** The lines without their breaks; a final line break does not add an empty line. */
  lines: string[];
  crlf: boolean;
  bom: boolean;
  finalNewline: boolean;
}

const BOM = '\uFEFF';
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes UTF-8 text, or returns null for bytes that are not (a binary file, another encoding). */
export function decodeText(bytes: Uint8Array): TextFile | null {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  const crlfCount = text.split('\r\n').length - 1;
  const lfCount = text.split('\n').length - 1 - crlfCount;
  const crlf = crlfCount > 0 && crlfCount >= lfCount;
  const normalized = text.replace(/\r\n/g, '\n');
  // An empty file gains a final newline with its first lines, like a new file.
  const finalNewline = normalized === '' || normalized.endsWith('\n');
  const lines = normalized.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return { lines, crlf, bom, finalNewline };
}

/** The file's text with LF breaks, as diffs show it. */
export function plainText(file: Pick<TextFile, 'lines' | 'finalNewline'>): string {
  if (file.lines.length === 0) return '';
  return file.lines.join('\n') + (file.finalNewline ? '\n' : '');
}

/** The bytes to write: the file's own line breaks and byte-order mark restored. */
export function encodeText(file: TextFile): Buffer {
  const text = plainText(file);
  return Buffer.from((file.bom ? BOM : '') + (file.crlf ? text.replace(/\n/g, '\r\n') : text), 'utf8');
}
