// The places a workspaceWrite policy lets commands write, and what stays read-only inside them.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { SandboxPolicy } from '../protocol/enums';

export interface WritableRoot {
  root: string;
  /** Paths under the root that stay read-only (`.git`, so a command cannot rewrite history or hooks). */
  readOnly: string[];
}

const PROTECTED = ['.git'];

export interface Confinement {
  /** Null: everything is writable (no confinement of writes). */
  writableRoots: WritableRoot[] | null;
  network: boolean;
  /** A private, writable /tmp for the command (workspaceWrite without excludeSlashTmp). */
  privateTmp: boolean;
}

/** What a policy allows, for a command started in `cwd`. */
export function confinementOf(policy: SandboxPolicy, cwd: string, env: NodeJS.ProcessEnv): Confinement {
  switch (policy.type) {
    case 'dangerFullAccess':
      return { writableRoots: null, network: true, privateTmp: false };
    case 'externalSandbox':
      return { writableRoots: null, network: policy.networkAccess === 'enabled', privateTmp: false };
    case 'readOnly':
      return { writableRoots: [], network: policy.networkAccess === true, privateTmp: false };
    case 'workspaceWrite': {
      const roots = [cwd, ...(policy.writableRoots ?? [])];
      const tmpdir = env.TMPDIR;
      if (!policy.excludeTmpdirEnvVar && tmpdir && isAbsolute(tmpdir)) roots.push(tmpdir);
      const unique = [...new Set(roots.map((root) => resolve(cwd, root)))].filter((root) => existsSync(root));
      return {
        writableRoots: unique.map((root) => ({
          root,
          readOnly: PROTECTED.map((name) => join(root, name)).filter((path) => existsSync(path)),
        })),
        network: policy.networkAccess === true,
        privateTmp: !policy.excludeSlashTmp,
      };
    }
  }
}
