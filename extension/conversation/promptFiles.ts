// The prompt files the `/` menu offers: the user's ($THREADLINE_HOME/prompts/*.md, the home the
// bundled server uses, from the same environment) and the workspace's (.threadline/prompts/*.md).
// Read by the extension, not the server: they are the user's text to send, nothing the server acts
// on. A workspace's files are whoever wrote the repository's: bounded in number and size, never a
// link, only their description and argument hint are read besides the text, and a user's prompt of
// the same name hides the workspace's.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { resolveHome } from '../../server/config/home';
import { parsePromptFile, type CustomPrompt } from '../../webview/composer/customPrompts';

const MAX_FILES = 200;
const MAX_BYTES = 64 * 1024;

export async function listPromptFiles(cwd: string | undefined, env = process.env): Promise<CustomPrompt[]> {
  const user = await readFolder(path.join(resolveHome(env), 'prompts'), 'user');
  const workspace = cwd ? await readFolder(path.join(cwd, '.threadline', 'prompts'), 'workspace') : [];
  const taken = new Set(user.map((prompt) => prompt.name));
  return [...user, ...workspace.filter((prompt) => !taken.has(prompt.name))];
}

async function readFolder(folder: string, source: CustomPrompt['source']): Promise<CustomPrompt[]> {
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  const names = entries
    // A workspace's link could name any file of the user's (a key, a token): only its own files count.
    .filter(
      (entry) =>
        (entry.isFile() || (source === 'user' && entry.isSymbolicLink())) &&
        /^[\w.-]+\.md$/i.test(entry.name),
    )
    .map((entry) => entry.name)
    .sort()
    .slice(0, MAX_FILES);
  const prompts: CustomPrompt[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile() || stat.size > MAX_BYTES) continue;
    const content = await fs.readFile(file, 'utf8').catch(() => null);
    if (content !== null) prompts.push(parsePromptFile(name.replace(/\.md$/i, ''), content, source));
  }
  return prompts;
}
