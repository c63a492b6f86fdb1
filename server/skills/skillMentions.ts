// `$name` in a prompt asks for that skill as a `skill` input item would. The mentioned skills are
// added to what the model is shown (the user's message stays as typed); a skill the input already
// carries as an item is not added twice, and a name no enabled skill has is left as text. Names
// resolve in the order of skillPrecedence.ts: the user's skill, never a repository's of that name.
import { dirname } from 'node:path';
import type { UserInput } from '../protocol/userInput';
import type { Skill } from './skillCatalog';

const MENTION = /(?:^|[^\w$])\$([A-Za-z0-9][A-Za-z0-9._:-]*)/g;

/** The names `$name` tokens in `text` spell (trailing punctuation is not part of a name). */
export function mentionedNames(text: string): string[] {
  return [...text.matchAll(MENTION)].map((match) => match[1]!);
}

export function skillItemsFor(input: UserInput[], skills: Skill[]): UserInput[] {
  const given = new Set(input.flatMap((part) => (part.type === 'skill' ? [part.name] : [])));
  const added: UserInput[] = [];
  for (const part of input) {
    if (part.type !== 'text') continue;
    for (const token of mentionedNames(part.text)) {
      const skill = resolveMention(token, skills);
      if (!skill || given.has(skill.name)) continue;
      given.add(skill.name);
      added.push({ type: 'skill', name: skill.name, path: skill.path });
    }
  }
  return added;
}

/** `$lint.` at the end of a sentence still names `lint`. */
function resolveMention(token: string, skills: Skill[]): Skill | undefined {
  for (let name = token; name !== ''; name = name.slice(0, -1)) {
    const skill = skills.find((candidate) => candidate.name === name);
    if (skill) return skill;
    if (!/[.:-]$/.test(name)) return undefined;
  }
  return undefined;
}

/** The system prompt's section naming the skills the model may open with read_skill. */
export function skillsSection(skills: Skill[]): string | null {
  if (skills.length === 0) return null;
  const lines = skills.map((skill) => {
    const whose = skill.sharesNameWith
      ? ` [the repository's skill named "${skill.sharesNameWith}"; \`$${skill.sharesNameWith}\` and read_skill "${skill.sharesNameWith}" mean the one listed above]`
      : '';
    return `- ${skill.name}: ${skill.description.replace(/\s+/g, ' ')} (${dirname(skill.path)})${whose}`;
  });
  return [
    '# Skills',
    'Skills are instructions the user keeps for particular kinds of work. These are available:',
    ...lines,
    'When the user names a skill (`$name`) its instructions are already in their message. When a task matches a skill they did not name, call `read_skill` with its name and follow what it says; open files it refers to with `read_skill` and `file`. Read only what the task needs.',
  ].join('\n');
}
