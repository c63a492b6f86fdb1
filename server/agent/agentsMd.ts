// The user's and the project's AGENTS.md, as the model reads them at the start of every turn (edits
// apply to the next turn): the one in Threadline's home first, then one per folder from the project's
// root (the nearest folder holding `.git`) down to the thread's folder, each folder's
// AGENTS.override.md in place of its AGENTS.md, as Codex reads them. What `externalAgentConfig/import`
// writes from CLAUDE.md lands here. The files are the project's words, not the user's: they shape how
// the agent works, never what it may do (approvals and the sandbox stay as the thread says).
import { promises as fs } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Codex's default `project_doc_max_bytes`: the project's files together, the rest cut off. */
const AGENTS_MD_MAX_BYTES = 32 * 1024;
const NAMES = ['AGENTS.override.md', 'AGENTS.md'];

interface AgentsFile {
  label: string;
  text: string;
}

/** The instructions section for a turn in `cwd`, or null when no AGENTS.md applies. */
export async function agentsMdSection(home: string, cwd: string): Promise<string | null> {
  const own = await readFirst(home);
  const files = [
    ...(own ? [{ label: `yours (${own.name} in Threadline's home)`, text: own.text }] : []),
    ...(await projectFiles(cwd, AGENTS_MD_MAX_BYTES)),
  ];
  if (files.length === 0) return null;
  const parts = files.map(({ label, text }) => `## ${label}\n\n${text.trim()}`);
  return `# AGENTS.md instructions\nNotes the user and the project keep for agents working here.\n\n${parts.join('\n\n')}`;
}

async function projectFiles(cwd: string, budget: number): Promise<AgentsFile[]> {
  const root = await projectRoot(cwd);
  const files: AgentsFile[] = [];
  let left = budget;
  for (const folder of foldersDown(root, cwd)) {
    const file = left > 0 ? await readFirst(folder) : undefined;
    if (!file) continue;
    const bytes = Buffer.from(file.text, 'utf8');
    const text =
      bytes.length > left
        ? `${bytes.subarray(0, left).toString('utf8')}\n[cut off: the project's AGENTS.md files may hold ${budget} bytes]`
        : file.text;
    left -= bytes.length;
    files.push({ label: relative(root, join(folder, file.name)), text });
  }
  return files;
}

/** The first non-empty file of NAMES in a folder. */
async function readFirst(folder: string): Promise<{ name: string; text: string } | undefined> {
  for (const name of NAMES) {
    const text = await fs.readFile(join(folder, name), 'utf8').catch(() => '');
    if (text.trim()) return { name, text };
  }
  return undefined;
}

/** The nearest folder at or above `cwd` that holds `.git`; `cwd` itself outside a repository. */
async function projectRoot(cwd: string): Promise<string> {
  for (let folder = cwd; ; folder = dirname(folder)) {
    const found = await fs.stat(join(folder, '.git')).then(
      () => true,
      () => false,
    );
    if (found) return folder;
    if (dirname(folder) === folder) return cwd;
  }
}

/** `root`, then each folder below it down to `cwd`. */
function foldersDown(root: string, cwd: string): string[] {
  const steps = relative(root, cwd).split(/[\\/]/).filter(Boolean);
  return [root, ...steps.map((_, i) => join(root, ...steps.slice(0, i + 1)))];
}
