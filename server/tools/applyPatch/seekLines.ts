// Finds where a run of lines from a patch sits in a file. Models copy context imperfectly, so the
// search loosens step by step, as the reference applier does: exact, then ignoring trailing
// whitespace, then ignoring whitespace at both ends, then also treating typographic dashes, quotes
// and spaces as their ASCII forms. A stricter match anywhere wins over a looser one earlier.

const TYPOGRAPHIC: Record<string, string> = {
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u00A0': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2004': ' ',
  '\u2005': ' ',
  '\u2006': ' ',
  '\u2007': ' ',
  '\u2008': ' ',
  '\u2009': ' ',
  '\u200A': ' ',
  '\u202F': ' ',
  '\u205F': ' ',
  '\u3000': ' ',
};
const TYPOGRAPHIC_CHARS = new RegExp(`[${Object.keys(TYPOGRAPHIC).join('')}]`, 'g');

const LOOSENINGS: ((line: string) => string)[] = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  (line) => line.trim().replace(TYPOGRAPHIC_CHARS, (c) => TYPOGRAPHIC[c]),
];

/**
 * The index of the first place at or after `start` where `pattern` occurs in `lines`, or -1.
 * With `atEnd`, a match ending on the file's last line is tried first.
 */
export function seekLines(lines: string[], pattern: string[], start: number, atEnd: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const last = lines.length - pattern.length;
  if (atEnd) {
    const found = seekFrom(lines, pattern, last, last);
    if (found >= 0) return found;
  }
  return seekFrom(lines, pattern, start, last);
}

function seekFrom(lines: string[], pattern: string[], from: number, last: number): number {
  for (const norm of LOOSENINGS) {
    const wanted = pattern.map(norm);
    for (let i = from; i <= last; i++) {
      let j = 0;
      while (j < wanted.length && norm(lines[i + j]) === wanted[j]) j++;
      if (j === wanted.length) return i;
    }
  }
  return -1;
}
