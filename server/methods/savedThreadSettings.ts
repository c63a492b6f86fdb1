// The settings a thread's turns run with, kept in Threadline's home (thread-settings/<id>.json) so a
// thread resumed after a restart runs with what it ran with before (the policies, personality,
// plan mode and instructions a client set by turn), and so rebuilds the same requests: the same
// context, nothing re-sent. Written when a turn starts with settings that differ from the last
// saved; an unreadable or foreign file is ignored, the defaults standing in.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { ThreadSettings } from '../config/settings';
import { writeFileAtomic } from '../tools/applyPatch/atomicFile';

const FOLDER = 'thread-settings';
/** What each home's threads last saved, so an unchanged turn writes nothing. */
const lastSaved = new Map<string, string>();

function fileOf(home: string, threadId: string): string | null {
  // Thread ids are UUIDs; anything else never names a file.
  return /^[A-Za-z0-9_-]+$/.test(threadId) ? join(home, FOLDER, `${threadId}.json`) : null;
}

export async function saveThreadSettings(home: string, threadId: string, settings: ThreadSettings) {
  const file = fileOf(home, threadId);
  const json = JSON.stringify(settings);
  if (!file || lastSaved.get(file) === json) return;
  await fs.mkdir(join(home, FOLDER), { recursive: true });
  await writeFileAtomic(file, Buffer.from(json, 'utf8'));
  lastSaved.set(file, json);
}

/** The saved settings over `defaults`, each kept only when its kind matches; null when none are saved. */
export async function savedThreadSettings(
  home: string,
  threadId: string,
  defaults: ThreadSettings,
): Promise<ThreadSettings | null> {
  const file = fileOf(home, threadId);
  const text = file ? await fs.readFile(file, 'utf8').catch(() => null) : null;
  let saved: unknown;
  try {
    saved = text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return null;
  const settings: Record<string, unknown> = { ...defaults };
  for (const [key, fallback] of Object.entries(defaults)) {
    const value = (saved as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const fits =
      typeof value === typeof fallback ||
      ((value === null || typeof value === 'object') && (fallback === null || typeof fallback === 'object'));
    if (fits && Array.isArray(value) === Array.isArray(fallback)) settings[key] = value;
  }
  return settings as unknown as ThreadSettings;
}

export async function forgetThreadSettings(home: string, threadId: string): Promise<void> {
  const file = fileOf(home, threadId);
  if (!file) return;
  lastSaved.delete(file);
  await fs.rm(file, { force: true });
}
