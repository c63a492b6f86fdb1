// What a project's (or plugin's) stdio MCP server runs beyond the words of its definition. Trusting
// `sh tools/mcp.sh` or `node server.js` means trusting those files as they are now: the agent can
// rewrite them, and the server then runs unsandboxed whatever it wrote. So trust is remembered for the
// definition together with the content of every file its command and arguments name, and a change to
// one asks again. Files those files load in turn are not followed (a node script's imports): the
// question names what is covered. A package runner without an exact version fetches whatever the
// registry serves at start, which no trust can cover: the question says so.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import type { McpTransportConfig } from '../config/mcpServers';
import type { ProjectServer } from './projectServers';

export interface NamedCode {
  /** What trust is remembered under: the definition and the content of every file it names. */
  fingerprint: string;
  /** The files covered, as the definition names them. */
  files: string[];
  /** Package runs that are not pinned to an exact version ("npx foo"). */
  unpinned: string[];
}

// A named file past this is fingerprinted by size and modification time: reading a 100 MB binary on
// every turn would cost more than it proves.
const MAX_HASHED_BYTES = 8 * 1024 * 1024;

export async function namedCode(server: ProjectServer): Promise<NamedCode> {
  const { transport } = server.config;
  if (transport.type !== 'stdio') return { fingerprint: server.fingerprint, files: [], unpinned: [] };
  const cwd = transport.cwd ?? process.cwd();
  const hashes: [string, string][] = [];
  for (const word of namedPaths(transport)) {
    const hash = await contentHash(isAbsolute(word) ? word : resolve(cwd, word));
    if (hash) hashes.push([word, hash]);
  }
  const unpinned = unpinnedRuns(transport.command, transport.args);
  // No file named: the definition alone, so trust given before files counted still holds.
  const fingerprint =
    hashes.length === 0
      ? server.fingerprint
      : createHash('sha256')
          .update(JSON.stringify({ definition: server.fingerprint, files: hashes }))
          .digest('hex');
  return { fingerprint, files: hashes.map(([word]) => word), unpinned };
}

/** The words that could name a file: the command when it is a path (a bare name is the PATH's), each
 * argument, and the value of an `--option=value`. */
function namedPaths(transport: Extract<McpTransportConfig, { type: 'stdio' }>): string[] {
  const words = /[\\/]/.test(transport.command) ? [transport.command] : [];
  for (const arg of transport.args) {
    const value = /^--?[\w-]+=(.+)$/s.exec(arg)?.[1];
    if (value) words.push(value);
    else if (!arg.startsWith('-')) words.push(arg);
  }
  return [...new Set(words.filter((w) => w.length > 0 && !w.includes('\0')))];
}

/** A regular file's content hash (size and time past the bound); nothing for a folder or no file. */
async function contentHash(path: string): Promise<string | null> {
  const info = await fs.stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  if (info.size > MAX_HASHED_BYTES) return `size ${info.size}, modified ${info.mtimeMs}`;
  const content = await fs.readFile(path).catch(() => null);
  return content ? createHash('sha256').update(content).digest('hex') : null;
}

// Runners that fetch a package and run it, with the words before the package's name.
const RUNNERS: { command: string; sub?: string[] }[] = [
  { command: 'npx' },
  { command: 'pnpx' },
  { command: 'bunx' },
  { command: 'uvx' },
  { command: 'npm', sub: ['exec'] },
  { command: 'npm', sub: ['x'] },
  { command: 'pnpm', sub: ['dlx'] },
  { command: 'yarn', sub: ['dlx'] },
  { command: 'bun', sub: ['x'] },
  { command: 'pipx', sub: ['run'] },
  { command: 'uv', sub: ['tool', 'run'] },
];
// Options whose value names the package to run rather than the package being the first word.
const PACKAGE_OPTIONS = new Set(['-p', '--package', '--from', '--spec']);
const EXACT_VERSION = /(?:@|==)v?\d+\.\d+\.\d+(?:[-+][\w.+-]+)?$/;

/** "npx foo" for each package a runner would fetch without an exact version. */
export function unpinnedRuns(command: string, args: string[]): string[] {
  const name = basename(command)
    .toLowerCase()
    .replace(/\.(cmd|exe|bat|ps1)$/, '');
  const runner = RUNNERS.find((r) => r.command === name && (r.sub ?? []).every((w, i) => args[i] === w));
  if (!runner) return [];
  const rest = args.slice(runner.sub?.length ?? 0);
  const named: string[] = [];
  let first: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [option, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (PACKAGE_OPTIONS.has(option)) {
      const value = inline ?? rest[++i];
      if (value) named.push(value);
    } else if (!arg.startsWith('-')) {
      first = arg;
      break;
    }
  }
  const packages = named.length > 0 ? named : first ? [first] : [];
  const local = (spec: string) => /^(\.|\/|~|file:)/.test(spec) || isAbsolute(spec);
  return packages
    .filter((spec) => !local(spec) && !EXACT_VERSION.test(spec))
    .map((spec) => [name, ...(runner.sub ?? []), spec].join(' '));
}
