// The skills each working directory sees, scanned once per cwd and kept until a client asks for a
// reload (or a plugin brings or takes skills). Whether a skill is on is read from config.toml on
// every call, so turning one off needs no rescan.
import { promises as fs } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { SkillErrorInfo, SkillMetadata, SkillsListEntry } from '../protocol/skillMethods';
import { disabledSkillPaths } from './skillConfig';
import { byPrecedence } from './skillPrecedence';
import { SKILL_FILE } from './skillFile';
import { skillRoots } from './skillRoots';
import { scanRoot, type FoundSkill, type SkillRoot } from './skillScan';

export interface Skill extends FoundSkill {
  enabled: boolean;
  /** A repository's skill renamed for a turn: the name it shares with a skill that comes first. */
  sharesNameWith?: string;
}

interface Discovery {
  skills: FoundSkill[];
  errors: SkillErrorInfo[];
}

export class SkillLookupError extends Error {}

export class SkillCatalog {
  private readonly cache = new Map<string, Promise<Discovery>>();
  /** skills/extraRoots/set's folders: user scope for every cwd, lists and turns alike. */
  private extraRoots: string[] = [];

  constructor(
    private readonly home: string,
    private readonly pluginRoots: () => Promise<SkillRoot[]>,
  ) {}

  async list(cwd: string, extraUserRoots: string[] = [], forceReload = false): Promise<SkillsListEntry> {
    const { skills, errors } = await this.discover(cwd, extraUserRoots, forceReload);
    const disabled = await disabledSkillPaths(this.home);
    return { cwd, skills: skills.map((skill) => metadata(skill, !disabled.has(skill.path))), errors };
  }

  /**
   * The skills a turn in `cwd` may use: on, in the order a `$name` resolves them (the user's before
   * a repository's, which is renamed where it shares a name: skillPrecedence.ts).
   */
  async enabled(cwd: string): Promise<Skill[]> {
    const { skills } = await this.discover(cwd, [], false);
    const disabled = await disabledSkillPaths(this.home);
    return byPrecedence(
      skills.filter((skill) => !disabled.has(skill.path)).map((skill) => ({ ...skill, enabled: true })),
    );
  }

  /** Replaces the extra roots every cwd is scanned with (absolute paths). */
  setExtraRoots(roots: string[]): void {
    this.extraRoots = [...new Set(roots.map((root) => resolve(root)))];
    this.invalidate();
  }

  /** Forgets every scan: the next list reads the folders again. */
  invalidate(): void {
    this.cache.clear();
  }

  /** The SKILL.md a skills/config/write names: by path (the file or its folder), or by a unique name. */
  async resolveTarget(target: { path?: string | null; name?: string | null }): Promise<string> {
    if (target.path) {
      let path = resolve(target.path);
      if ((await fs.stat(path).catch(() => null))?.isDirectory()) path = join(path, SKILL_FILE);
      if (basename(path) !== SKILL_FILE || !(await fs.stat(path).catch(() => null))?.isFile()) {
        throw new SkillLookupError(`path: ${target.path} is not a skill's ${SKILL_FILE} or its folder`);
      }
      return path;
    }
    if (target.name) {
      const known = new Set<string>();
      for (const discovery of this.cache.values()) {
        for (const skill of (await discovery).skills) {
          if (skill.name === target.name) known.add(skill.path);
        }
      }
      if (known.size === 1) return [...known.values()][0]!;
      throw new SkillLookupError(
        known.size === 0
          ? `name: no listed skill is named ${target.name} (list skills first, or name it by path)`
          : `name: ${known.size} skills are named ${target.name}; name the one you mean by path`,
      );
    }
    throw new SkillLookupError('give the skill as `path` or `name`');
  }

  private discover(cwd: string, asked: string[], forceReload: boolean): Promise<Discovery> {
    const extraUserRoots = [...new Set([...this.extraRoots, ...asked.map((root) => resolve(root))])];
    const key = [resolve(cwd), ...extraUserRoots].join('\0');
    let discovery = this.cache.get(key);
    if (!discovery || forceReload) {
      discovery = this.scan(cwd, extraUserRoots);
      this.cache.set(key, discovery);
      discovery.catch(() => this.cache.delete(key));
    }
    return discovery;
  }

  private async scan(cwd: string, extraUserRoots: string[]): Promise<Discovery> {
    const roots = await skillRoots({
      home: this.home,
      cwd,
      extraUserRoots,
      pluginRoots: await this.pluginRoots(),
    });
    const results = await Promise.all(roots.map(scanRoot));
    const skills: FoundSkill[] = [];
    const errors: SkillErrorInfo[] = [];
    const seen = new Set<string>();
    for (const result of results) {
      // The same folder reached through two roots (a link, ~/.agents inside the home) is listed once.
      // A root's folders are read in parallel; by path, the listing is the same every time.
      const byPath = [...result.skills].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (const skill of byPath) {
        if (seen.has(skill.realFolder)) continue;
        seen.add(skill.realFolder);
        skills.push(skill);
      }
      errors.push(...result.errors);
    }
    return { skills, errors };
  }
}

function metadata(skill: FoundSkill, enabled: boolean): SkillMetadata {
  return {
    name: skill.name,
    description: skill.description,
    shortDescription: skill.shortDescription,
    interface: skill.interface,
    path: skill.path,
    scope: skill.scope,
    enabled,
    pluginId: skill.pluginId,
  };
}
