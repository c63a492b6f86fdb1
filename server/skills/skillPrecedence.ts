// Which skill a name means when several share it. The user's own skills (and their installed
// plugins') come before a repository's, whatever order the folders were read in: a cloned repository
// must not put its text under the name of a skill the user relies on (`$deploy`, read_skill). The
// repository's skill stays usable under a name of its own, `repo:<name>`, and the model is told
// whose is whose.
import type { Skill } from './skillCatalog';

const REPO_PREFIX = 'repo:';

/** The skills in the order a name resolves them, a repository's that share a name renamed. */
export function byPrecedence(skills: Skill[]): Skill[] {
  const ordered = [
    ...skills.filter((skill) => skill.scope !== 'repo'),
    ...skills.filter((skill) => skill.scope === 'repo'),
  ];
  const taken = new Set<string>();
  return ordered.map((skill) => {
    const renamed = `${REPO_PREFIX}${skill.name}`;
    if (skill.scope === 'repo' && taken.has(skill.name) && !taken.has(renamed)) {
      taken.add(renamed);
      return { ...skill, name: renamed, sharesNameWith: skill.name };
    }
    taken.add(skill.name);
    return skill;
  });
}
