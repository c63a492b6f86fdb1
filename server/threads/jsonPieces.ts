// JSON text in pieces of bounded size, for writing records that hold a long string (a 50 MB
// answer) without making the whole line one string and then one buffer: each long string is
// escaped a slice at a time. Records without one come out as a single JSON.stringify.
import { randomBytes } from 'node:crypto';

/** Strings longer than this are escaped a slice at a time; slices this small die young, cheaply. */
const LONG = 32 * 1024;

/** The JSON of `value`, as pieces that join to JSON.stringify(value). */
export function* jsonPieces(value: unknown): Generator<string> {
  // Each long string is replaced by a marker no string of the value serializes to: it holds a
  // NUL, which JSON writes escaped, and a nonce.
  const nonce = randomBytes(8).toString('hex');
  const long: string[] = [];
  const skeleton = JSON.stringify(value, (_key, field: unknown) =>
    typeof field === 'string' && field.length > LONG ? `\u0000${nonce}:${long.push(field)}` : field,
  );
  if (!long.length) {
    yield skeleton;
    return;
  }
  const parts = skeleton.split(new RegExp(`"\\\\u0000${nonce}:\\d+"`));
  for (const [i, part] of parts.entries()) {
    yield part;
    const text = long[i];
    if (text === undefined) break;
    yield '"';
    // A slice may split a surrogate pair: JSON.stringify escapes each half, which parse rejoins.
    for (let at = 0; at < text.length; at += LONG)
      yield JSON.stringify(text.slice(at, at + LONG)).slice(1, -1);
    yield '"';
  }
}
