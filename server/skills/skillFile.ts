// Reads one SKILL.md: YAML front matter between `---` lines (name, description, optional
// `interface` table), then the instructions. A file that breaks a rule yields a message naming
// the rule, never the file's text: a skill folder may be a link to anything.
import { dirname, isAbsolute, resolve } from 'node:path';
import { isWithin } from '../sandbox/protectedPaths';
import type { SkillInterface } from '../protocol/skillMethods';

export const SKILL_FILE = 'SKILL.md';
export const MAX_SKILL_BYTES = 256 * 1024;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
/** What a `$name` mention can name: no spaces, so a mention ends at the first one. */
export const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

export interface ParsedSkill {
  name: string;
  description: string;
  shortDescription: string | null;
  interface: SkillInterface | null;
}

export type SkillParse = { ok: true; skill: ParsedSkill } | { ok: false; message: string };

type Table = Record<string, unknown>;

/** `path` is the SKILL.md's absolute path; icons are resolved against its folder. */
export async function parseSkillFile(text: string, path: string): Promise<SkillParse> {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match)
    return fail('no front matter: the file must start with a `---` line, YAML, and a closing `---` line');
  let data: unknown;
  try {
    const { parse } = await import('yaml');
    // Aliases are capped so a crafted file cannot expand into a huge value.
    data = parse(match[1]!, { maxAliasCount: 20, prettyErrors: false });
  } catch (error) {
    return fail(`the front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (!isTable(data)) return fail('the front matter must be a YAML mapping with `name` and `description`');
  const name = data.name;
  if (typeof name !== 'string' || name.trim() === '') return fail('`name` is missing or not a string');
  if (name.length > MAX_NAME) return fail(`\`name\` is longer than ${MAX_NAME} characters`);
  if (!SKILL_NAME.test(name)) {
    return fail(
      '`name` may hold only letters, digits, `.`, `_`, `:` and `-`, starting with a letter or digit',
    );
  }
  const description = data.description;
  if (typeof description !== 'string' || description.trim() === '') {
    return fail('`description` is missing or not a string');
  }
  if (description.length > MAX_DESCRIPTION) {
    return fail(`\`description\` is longer than ${MAX_DESCRIPTION} characters`);
  }
  const metadata = isTable(data.metadata) ? data.metadata : {};
  return {
    ok: true,
    skill: {
      name,
      description: description.trim(),
      shortDescription: text0(data.short_description) ?? text0(metadata['short-description']),
      interface: isTable(data.interface) ? interfaceOf(data.interface, dirname(path)) : null,
    },
  };
}

/** The instructions after the front matter. */
export function skillBody(text: string): string {
  return text.replace(/^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, '').trim();
}

function interfaceOf(table: Table, folder: string): SkillInterface {
  const field = (snake: string, camel: string) => text0(table[snake]) ?? text0(table[camel]);
  return {
    displayName: field('display_name', 'displayName'),
    shortDescription: field('short_description', 'shortDescription'),
    iconSmall: icon(field('icon_small', 'iconSmall'), folder),
    iconLarge: icon(field('icon_large', 'iconLarge'), folder),
    brandColor: field('brand_color', 'brandColor'),
    defaultPrompt: field('default_prompt', 'defaultPrompt'),
  };
}

/** An icon is a file of the skill: a path that leaves its folder is dropped. */
function icon(value: string | null, folder: string): string | null {
  if (value === null) return null;
  const path = isAbsolute(value) ? value : resolve(folder, value);
  return isWithin(folder, path) ? path : null;
}

function text0(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): SkillParse {
  return { ok: false, message };
}
