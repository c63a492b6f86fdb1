// Shared by the worktree server suites (test/server/worktree*.test.ts): a small repository, a
// thread started in a worktree of it, and calls of our own methods checked against their schemas.
import { strict as assert } from 'node:assert';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { clientRequests } from '../../server/protocol/methods';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome } from './agent';
import { git } from './git';
import { patchCall } from './patches';
import { tempDir, useServers, type ServerProcess } from './serverProcess';

/** A repository on `main` with README.md and notes.txt committed. */
export function repository(): string {
  const repo = realpathSync(tempDir('threadline-wt-repo-'));
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), '# Demo\nold line\n');
  writeFileSync(join(repo, 'notes.txt'), 'first\nsecond\nthird\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'First');
  return repo;
}

/** A model answer that changes README.md's second line to `line`. */
export const readmeTo = (line: string) =>
  patchCall(
    [
      '*** Begin Patch',
      '*** Update File: README.md',
      '@@',
      ' # Demo',
      '-old line',
      `+${line}`,
      '*** End Patch',
    ].join('\n'),
  );

type Method = keyof typeof clientRequests;

/** Calls one of our own methods and checks its result against the protocol's schema. */
export async function checked<T>(server: ServerProcess, method: Method, params: unknown): Promise<T> {
  const result = await server.call<T>(method, params);
  const errors = [...Value.Errors(clientRequests[method].result, result)].map(
    (e) => `${e.path} ${e.message}`,
  );
  assert.deepEqual(errors, [], `${method} answered off its schema: ${JSON.stringify(result)}`);
  return result;
}

export interface Started {
  thread: { id: string; cwd: string; gitInfo: { branch: string | null; sha: string | null } | null };
  cwd: string;
}

export interface Applied {
  mode: string;
  applied: string[];
  merged: string[];
  conflicts: { path: string; resolution: string; theirsPath: string | null }[];
  skipped: unknown[];
}

/** A thread started in a new worktree of `cwd`, never asking, in the workspace-write sandbox. */
export const startIn = (server: ServerProcess, cwd: string, worktree: unknown = {}) =>
  checked<Started>(server, 'thread/start', {
    cwd,
    worktree,
    approvalPolicy: 'never',
    sandbox: 'workspace-write',
  });

/**
 * For a worktree suite's describe: the scripted model, a fresh home per test pointing at it, and a
 * server started there with the experimental API (or without).
 */
export function useWorktreeServers() {
  const model = useModelServer();
  const start = useServers();
  const state = { home: '' };
  beforeEach(() => (state.home = agentHome('responses', model.baseUrl)));
  return {
    model,
    home: () => state.home,
    serve: (experimentalApi = true) => start(state.home, 'threadline_vscode', agentEnv, { experimentalApi }),
  };
}
