// Where the user's Codex history is read from: `codex_history` in config.toml. Absent or true: the
// Codex home ($CODEX_HOME, else ~/.codex) when it exists; a path: that folder instead; false: none.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from '../log';

/** null: do not read a Codex history; undefined: the default root. */
export type CodexHistorySetting = string | null | undefined;

export function codexHistorySetting(value: unknown, log: Logger): CodexHistorySetting {
  if (value === undefined || value === true) return undefined;
  if (value === false) return null;
  if (typeof value === 'string' && value.trim()) return value.trim();
  log.warn('config.toml: codex_history must be true, false or a folder; reading the default Codex home');
  return undefined;
}

/** The folder to read, or null: none, or the same folder as Threadline's own home (never read twice). */
export function codexHistoryRoot(
  setting: CodexHistorySetting,
  threadlineHome: string,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (setting === null) return null;
  const home = homedir();
  const configured = setting ?? (env.CODEX_HOME?.trim() || join(home, '.codex'));
  const root = resolve(configured.startsWith('~/') ? join(home, configured.slice(2)) : configured);
  return root === resolve(threadlineHome) ? null : root;
}
