// Finds the skills under one root: every folder holding a SKILL.md, a few levels down. Each file is
// read and checked on its own, so a broken one becomes an error entry beside the good ones.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SkillErrorInfo, SkillScope } from '../protocol/skillMethods';
import { isWithin } from '../sandbox/protectedPaths';
import { MAX_SKILL_BYTES, SKILL_FILE, parseSkillFile, type ParsedSkill } from './skillFile';

export interface SkillRoot {
  path: string;
  scope: SkillScope;
  /** Skills found here belong to this installed plugin. */
  pluginId?: string;
  /**
   * A repository's skills must really live in the repository (this real path): a link out of it
   * would let a project's files present any file on the machine as instructions.
   */
  confineTo?: string;
}

export interface FoundSkill extends ParsedSkill {
  /** The SKILL.md file, as found under the root. */
  path: string;
  /** The real path of the skill's folder (links resolved). */
  realFolder: string;
  scope: SkillScope;
  pluginId: string | null;
}

export interface ScanResult {
  skills: FoundSkill[];
  errors: SkillErrorInfo[];
}

/** How far a root is searched, so a huge folder cannot stall skills/list. */
export const SCAN_LIMITS = { maxDepth: 4, maxDirs: 2000 };

export async function scanRoot(root: SkillRoot): Promise<ScanResult> {
  const result: ScanResult = { skills: [], errors: [] };
  const seen = new Set<string>();
  let budget = SCAN_LIMITS.maxDirs;
  let level = [root.path];
  for (let depth = 0; depth <= SCAN_LIMITS.maxDepth && level.length > 0 && budget > 0; depth++) {
    level = level.slice(0, budget);
    budget -= level.length;
    const next = await Promise.all(level.map((dir) => visit(dir, root, seen, result)));
    level = next.flat();
  }
  return result;
}

/** A skill folder is read; any other folder yields its subfolders (hidden ones skipped). */
async function visit(dir: string, root: SkillRoot, seen: Set<string>, result: ScanResult): Promise<string[]> {
  const real = await fs.realpath(dir).catch(() => null);
  // A link cycle, or two links to one folder, is visited once.
  if (real === null || seen.has(real)) return [];
  seen.add(real);
  const skillFile = join(dir, SKILL_FILE);
  const fileStat = await fs.stat(skillFile).catch(() => null);
  if (fileStat?.isFile()) {
    await readSkill(skillFile, real, fileStat.size, root, result);
    return [];
  }
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const folders: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory() || entry.isSymbolicLink()) folders.push(join(dir, entry.name));
  }
  return folders.sort();
}

async function readSkill(
  path: string,
  realFolder: string,
  size: number,
  root: SkillRoot,
  result: ScanResult,
): Promise<void> {
  const error = (message: string) => result.errors.push({ path, message });
  const realFile = await fs.realpath(path).catch(() => null);
  const outside = (real: string | null) => real === null || !isWithin(root.confineTo!, real);
  if (root.confineTo !== undefined && (outside(realFile) || outside(realFolder))) {
    return void error('the skill links outside its repository; skills of a repository must live in it');
  }
  if (size > MAX_SKILL_BYTES) return void error(`larger than ${MAX_SKILL_BYTES / 1024} KiB`);
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (cause) {
    return void error(`cannot read it (${(cause as NodeJS.ErrnoException).code})`);
  }
  const parsed = await parseSkillFile(text, path);
  if (!parsed.ok) return void error(parsed.message);
  result.skills.push({
    ...parsed.skill,
    path,
    realFolder,
    scope: root.scope,
    pluginId: root.pluginId ?? null,
  });
}
