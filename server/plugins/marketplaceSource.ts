// What marketplace/add's `source` names, as the reference reads it: a folder on this machine (an
// absolute path or `~/…`; its marketplace is read where it is), or a git repository to clone
// (`https://…`, `http://…`, `ssh://…`, `git@host:path`, `file://…`, or GitHub's `owner/repo`),
// with a branch or tag after `#` (or `@` for a shorthand) unless refName names one.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export type MarketplaceSource =
  { type: 'local'; path: string } | { type: 'git'; url: string; refName: string | null };

export class MarketplaceSourceError extends Error {}

const GIT_URL = /^(https?|ssh|file):\/\/[^\s]+$/;
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s]+$/;
const SHORTHAND = /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/;
// A branch or tag name as git allows it, without what would read as an option or a range.
const REF = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]{1,200}$/;

export function parseMarketplaceSource(text: string, refName: string | null): MarketplaceSource {
  const source = text.trim();
  if (source === '') throw new MarketplaceSourceError('source: must not be empty');
  if (isAbsolute(source) || source.startsWith('~/')) {
    if (refName) throw new MarketplaceSourceError('refName: only a git marketplace has a ref');
    return {
      type: 'local',
      path: resolve(source.startsWith('~/') ? join(homedir(), source.slice(2)) : source),
    };
  }
  if (source.startsWith('.')) {
    throw new MarketplaceSourceError(
      `source: ${source} is relative; give the marketplace folder's absolute path`,
    );
  }
  const [base, written] = splitRef(source);
  const ref = refName ?? written;
  if (ref !== null && !REF.test(ref))
    throw new MarketplaceSourceError(`refName: ${ref} is not a branch or tag name`);
  // A password or token in the URL would land in config.toml and the log: git's credential helper
  // keeps it. (ssh://git@host names a user, not a secret.)
  if (/^https?:\/\/[^/]*@/i.test(base) || /^[a-z]+:\/\/[^/@]*:[^/@]*@/i.test(base)) {
    throw new MarketplaceSourceError(
      "source: the URL holds a password; leave it to git's credential helper instead",
    );
  }
  if (GIT_URL.test(base) || SCP_LIKE.test(base))
    return { type: 'git', url: base.replace(/\/+$/, ''), refName: ref };
  if (SHORTHAND.test(base) && !base.includes('..')) {
    return { type: 'git', url: `https://github.com/${base}.git`, refName: ref };
  }
  throw new MarketplaceSourceError(
    `source: ${source.slice(0, 200)} is neither an absolute folder path nor a git URL (https://, ssh://, file://, git@host:path, owner/repo)`,
  );
}

/** `url#ref`, or `owner/repo@ref` (an `@` in a URL or in `git@host:` is part of it). */
function splitRef(source: string): [string, string | null] {
  const hash = source.lastIndexOf('#');
  if (hash > 0) return [source.slice(0, hash), source.slice(hash + 1).trim() || null];
  const at = source.lastIndexOf('@');
  if (!source.includes('://') && !SCP_LIKE.test(source) && at > 0) {
    return [source.slice(0, at), source.slice(at + 1).trim() || null];
  }
  return [source, null];
}

/** How the source is written in config.toml and compared for "already added". */
export function sourceText(source: MarketplaceSource): string {
  return source.type === 'local' ? source.path : source.url;
}

const SPARSE_PATH = /^[A-Za-z0-9._][A-Za-z0-9._/-]{0,199}$/;
const MAX_SPARSE = 50;

/** sparsePaths as folders of the repository (`plugins/lint`), checked and in one form; throws when not. */
export function sparsePaths(paths: string[]): string[] {
  if (paths.length > MAX_SPARSE) throw new MarketplaceSourceError(`sparsePaths: at most ${MAX_SPARSE}`);
  const clean = paths.map((path) => path.trim().replace(/^\.\//, '').replace(/\/+$/, ''));
  for (const path of clean) {
    if (!SPARSE_PATH.test(path) || path.split('/').some((part) => part === '..' || part === '')) {
      throw new MarketplaceSourceError(
        `sparsePaths: ${path.slice(0, 80)} is not a folder path inside the repository`,
      );
    }
  }
  return [...new Set(clean)];
}

/** The patterns a sparse checkout of these folders uses; the marketplace file's folder always comes. */
export const sparsePatterns = (paths: string[]): string[] =>
  paths.length ? ['/.agents/', ...paths.map((path) => `/${path}/`)] : [];
