// Plain git for tests setting up repositories (never the server's: it goes through hostGit.ts),
// with an identity so commits work on a machine that has none configured.
import { execFileSync } from 'node:child_process';

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
