// Paths between the suites (Unix) and the server under Wine (Windows). Wine maps the Unix root to
// drive Z:, so /tmp/x is Z:\tmp\x to the server. A Windows client sends Windows paths and reads
// Windows paths back: the stdio bridge turns the suites' messages into that and the answers back.
// On the way in, a string that is a whole Unix path is turned; on the way out, every Z:\ path in a
// string (error messages name paths too), but only one spelled with backslashes alone: a path the
// server spelled some other way (z:\, mixed slashes, another drive) reaches the suite as it is.

/** A Unix path as Windows programs under Wine name it. */
export const windowsPath = (path: string) => `Z:${path.replace(/\//g, '\\')}`;

const isUnixPath = (text: string) => text.startsWith('/') && !text.startsWith('//') && !text.includes('\n');
// Up to what cannot be in a Windows file name (or ends a clause: "Cannot read Z:\x: no such file").
const winePathsIn = /Z:\\[^\s'"`<>|*?:]*/g;

/** A Z:\ path as the Unix path it is (Z:\ alone is the root), unless it has a forward slash. */
export const unixPath = (path: string) => (path.includes('/') ? path : path.slice(2).replace(/\\/g, '/'));

/** Every string (and object key) in a JSON value that is a Unix path, as a Windows path. */
export const toWindowsPaths = (value: unknown): unknown =>
  mapStrings(value, (text) => (isUnixPath(text) ? windowsPath(text) : text));

/** Every Z:\ path in the strings (and object keys) of a JSON value, as a Unix path. */
export const toUnixPaths = (value: unknown): unknown =>
  mapStrings(value, (text) => text.replace(winePathsIn, unixPath));

function mapStrings(value: unknown, turn: (text: string) => string): unknown {
  if (typeof value === 'string') return turn(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, turn));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [turn(key), mapStrings(item, turn)]));
}
