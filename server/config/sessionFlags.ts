// `-c key=value` overrides from the command line, as a config table: the value is read as a TOML
// value (`-c model_context_window=32000`, `-c 'features.view_image=false'`), else taken as a string
// (`-c model=o3`), as Codex does.
import { parseKeyPath } from './keyPath';
import { isPlainTable, type Table } from './tomlFile';

export async function sessionFlagsTable(overrides: string[]): Promise<Table> {
  const { parse } = await import('smol-toml');
  const table: Table = {};
  for (const override of overrides) {
    const at = override.indexOf('=');
    const path = at > 0 ? parseKeyPath(override.slice(0, at).trim()) : null;
    if (!path) throw new Error(`-c ${override}: expected key=value (a dotted key path)`);
    const raw = override.slice(at + 1);
    let value: unknown;
    try {
      value = parse(`value = ${raw}`).value;
    } catch {
      value = raw;
    }
    let target = table;
    for (const key of path.slice(0, -1)) {
      const next = target[key];
      target = isPlainTable(next) ? next : (target[key] = {});
    }
    target[path[path.length - 1]!] = value;
  }
  return table;
}
