// Turns what the user sent (text, images, skills, mentions) into what the model is shown. Files are
// read here, before the turn starts, so a missing one is the request's error, not the turn's.
import { promises as fs } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { UserInput } from '../protocol/userInput';
import type { ContentPart, ConversationEntry } from '../providers/types';
import { mentionText } from './mentionContent';
import { UserInputError } from './userInputError';

export { UserInputError };

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};
const startsWith = (data: Buffer, bytes: number[], at = 0) => bytes.every((byte, i) => data[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const IMAGE_SIGNATURES: Record<string, (data: Buffer) => boolean> = {
  'image/png': (data) => startsWith(data, [0x89, ...ascii('PNG\r\n'), 0x1a, 0x0a]),
  'image/jpeg': (data) => startsWith(data, [0xff, 0xd8, 0xff]),
  'image/gif': (data) => startsWith(data, ascii('GIF87a')) || startsWith(data, ascii('GIF89a')),
  'image/webp': (data) => startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8),
};
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const MAX_SKILL_BYTES = 256 * 1024;

export async function toUserEntry(input: UserInput[], cwd: string): Promise<ConversationEntry> {
  const content: ContentPart[] = [];
  for (const part of input) content.push(await toContent(part, cwd));
  return { kind: 'user', content };
}

async function toContent(part: UserInput, cwd: string): Promise<ContentPart> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', url: part.url };
    case 'localImage':
      return { type: 'image', url: await imageDataUrl(resolve(cwd, part.path)) };
    case 'skill':
      return { type: 'text', text: await skillText(part.name, resolve(cwd, part.path)) };
    case 'mention':
      // `app://` and other schemes name things, not files: the model reads the name.
      if (/^[a-z][a-z0-9+.-]+:\/\//i.test(part.path))
        return { type: 'text', text: `@${part.name} (${part.path})` };
      return { type: 'text', text: await mentionText(part.name, part.path, cwd) };
  }
}

/** A local image as a data: URL; `field` names what asked for it in errors (a UserInputError). */
export async function imageDataUrl(path: string, field = 'localImage'): Promise<string> {
  const mime = IMAGE_TYPES[extname(path).toLowerCase()];
  if (!mime) throw new UserInputError(`${field} ${path}: not a PNG, JPEG, GIF or WebP image`);
  const data = await readLimited(path, MAX_IMAGE_BYTES, field);
  // The name is the model's to choose: `key.png` may be a link to auth.json or a private key, which
  // would otherwise go to the provider and into the thread's history as an "image".
  if (!IMAGE_SIGNATURES[mime]!(data))
    throw new UserInputError(`${field} ${path}: its content is not a ${mime.slice(6).toUpperCase()} image`);
  return `data:${mime};base64,${data.toString('base64')}`;
}

/** A skill's instructions: its SKILL.md (the path may name the file or its folder). */
async function skillText(name: string, path: string): Promise<string> {
  const file = (await isDirectory(path)) ? resolve(path, 'SKILL.md') : path;
  const body = (await readLimited(file, MAX_SKILL_BYTES, 'skill')).toString('utf8');
  return `<skill>\n<name>${name}</name>\n<path>${file}</path>\n${body}\n</skill>`;
}

async function isDirectory(path: string): Promise<boolean> {
  return fs.stat(path).then(
    (stat) => stat.isDirectory(),
    () => false,
  );
}

async function readLimited(path: string, limit: number, field: string): Promise<Buffer> {
  let stat;
  try {
    stat = await fs.stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserInputError(
      `${field} ${path}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code})`}`,
    );
  }
  if (!stat.isFile()) throw new UserInputError(`${field} ${path}: not a file`);
  if (stat.size > limit) throw new UserInputError(`${field} ${path}: larger than ${limit / 1024 / 1024} MiB`);
  try {
    return await fs.readFile(path);
  } catch (error) {
    throw new UserInputError(`${field} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code})`);
  }
}
