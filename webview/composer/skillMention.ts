// `$name` skill mentions in the composer: finding the `$query` the caret is in, ranking the
// workspace's skills for it, and the skill items a sent prompt carries for the skills it names.
import type { SkillMetadata } from '../../server/protocol/skillMethods';
import type { UserInput } from '../../server/protocol/userInput';

export interface SkillQuery {
  /** Where the `$` is. */
  start: number;
  /** The text typed after it, up to the caret. */
  query: string;
}

/** The `$query` being typed at `caret`: a `$` at the start or after whitespace, no space since. */
export function skillQueryAt(text: string, caret: number): SkillQuery | null {
  const match = /(^|\s)\$([A-Za-z0-9._:-]*)$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2].length - 1, query: match[2] };
}

/** Skills whose name starts with the query first, then those whose name or title contains it. */
export function rankSkills(skills: SkillMetadata[], query: string, limit = 12): SkillMetadata[] {
  const q = query.toLowerCase();
  const title = (skill: SkillMetadata) => (skill.interface?.displayName ?? '').toLowerCase();
  const score = (skill: SkillMetadata) => {
    const name = skill.name.toLowerCase();
    if (name.startsWith(q)) return 0;
    if (name.includes(q) || title(skill).includes(q)) return 1;
    return -1;
  };
  return skills
    .map((skill) => ({ skill, rank: score(skill) }))
    .filter(({ rank }) => rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.skill.name.localeCompare(b.skill.name))
    .slice(0, limit)
    .map(({ skill }) => skill);
}

/** The text with `$query` replaced by `$name `, and where the caret goes. */
export function insertSkill(
  text: string,
  mention: SkillQuery,
  caret: number,
  name: string,
): { text: string; caret: number } {
  const inserted = `$${name} `;
  return {
    text: text.slice(0, mention.start) + inserted + text.slice(caret),
    caret: mention.start + inserted.length,
  };
}

/**
 * A skill item for each picked skill the text still names, so the server injects exactly that
 * skill (the spec's recommended form) rather than resolving the name itself.
 */
export function skillItems(text: string, picked: SkillMetadata[]): UserInput[] {
  const named = picked.filter((skill) =>
    new RegExp(`(^|\\s)\\$${skill.name.replace(/[.:-]/g, '\\$&')}(?![A-Za-z0-9_-])`).test(text),
  );
  const unique = [...new Map(named.map((skill) => [skill.path, skill])).values()];
  return unique.map((skill) => ({ type: 'skill', name: skill.name, path: skill.path }));
}
