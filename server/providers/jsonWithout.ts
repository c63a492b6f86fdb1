// Reads past one member of a JSON text without decoding it. Responses closes a stream with
// `response.completed`, which repeats the whole answer in `response.output`: a 50 MB answer parsed
// again only to read the usage beside it cost as much memory as the answer once more. Skipping the
// value by its brackets (strings jumped over whole) keeps the parse to the few small fields read.

const STRUCTURAL = /["{}[\]]/g;

/**
 * `json` with the object or array found under `path` (keys from the top-level object down)
 * replaced by `null`; unchanged if there is none. `json` must be valid JSON: what it is not,
 * the parse that follows reports.
 */
export function jsonWithout(json: string, path: readonly string[]): string {
  /** The key each open container sits under (null in an array or at the top). */
  const open: (string | null)[] = [];
  let key: string | null = null;
  let colon = -1;
  let skipFrom = -1;
  const structural = new RegExp(STRUCTURAL);
  for (let match = structural.exec(json); match; match = structural.exec(json)) {
    const at = match.index;
    const char = json[at];
    if (char === '"') {
      const end = stringEnd(json, at);
      if (end === -1) return json;
      structural.lastIndex = end + 1;
      const next = afterSpace(json, end + 1);
      if (json[next] === ':' && skipFrom === -1) {
        key = JSON.parse(json.slice(at, end + 1)) as string;
        colon = next;
      }
    } else if (char === '{' || char === '[') {
      const under = colon !== -1 && afterSpace(json, colon + 1) === at ? key : null;
      open.push(under);
      colon = -1;
      if (skipFrom === -1 && open.length === path.length + 1 && path.every((name, i) => open[i + 1] === name))
        skipFrom = at;
    } else {
      open.pop();
      if (skipFrom !== -1 && open.length === path.length)
        return `${json.slice(0, skipFrom)}null${json.slice(at + 1)}`;
    }
  }
  return json;
}

/** The index of the quote that ends the string starting at `start`, -1 if it never ends. */
function stringEnd(json: string, start: number): number {
  for (let end = json.indexOf('"', start + 1); end !== -1; end = json.indexOf('"', end + 1)) {
    let backslashes = 0;
    while (json.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
  return -1;
}

function afterSpace(json: string, from: number): number {
  while (from < json.length && ' \t\n\r'.includes(json[from]!)) from++;
  return from;
}
