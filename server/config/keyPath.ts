// Dotted key paths as config writes name them: `a.b.c`, with "quoted" segments for keys that hold
// dots or spaces (`projects."/home/me/app".trust_level`).
export function parseKeyPath(text: string): string[] | null {
  const keys: string[] = [];
  let i = 0;
  while (i <= text.length) {
    let key: string;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) return null;
      key = text.slice(i + 1, end);
      i = end + 1;
    } else {
      const end = text.indexOf('.', i);
      key = text.slice(i, end < 0 ? text.length : end).trim();
      if (!/^[A-Za-z0-9_-]+$/.test(key)) return null;
      i = end < 0 ? text.length : end;
    }
    keys.push(key);
    if (i === text.length) return keys;
    if (text[i] !== '.') return null;
    i++;
  }
  return null;
}
