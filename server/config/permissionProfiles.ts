// The named permission presets (permissionProfile/list): each a pair of approval policy and sandbox
// mode this server enforces, under the reference's built-in ids so a client written for it finds
// them. A client applies one by sending its approvalPolicy and sandbox to thread/start (or the
// matching sandboxPolicy to turn/start).
import type { ApprovalPolicy, SandboxMode } from '../protocol/enums';

export interface PermissionPreset {
  id: string;
  approvalPolicy: ApprovalPolicy;
  sandboxMode: SandboxMode;
  /** What the preset lets the agent do, for a picker. */
  summary: string;
}

export const permissionPresets: readonly PermissionPreset[] = [
  {
    id: ':read-only',
    approvalPolicy: 'on-request',
    sandboxMode: 'read-only',
    summary: 'Read only: the agent reads files and runs commands that cannot write; edits ask first',
  },
  {
    id: ':workspace',
    approvalPolicy: 'on-request',
    sandboxMode: 'workspace-write',
    summary:
      'Workspace: the agent edits files and runs commands in the workspace; network and writes elsewhere ask first',
  },
  {
    id: ':danger-full-access',
    approvalPolicy: 'never',
    sandboxMode: 'danger-full-access',
    summary: 'Full access: the agent edits any file and runs any command, network included, without asking',
  },
];
