// Enumerations whose spelling differs between the spec's prose (camelCase) and the schema (kebab):
// we accept both on input and emit only the schema's spelling, so everything we send validates.
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './schema';

const approvalSpellings = {
  untrusted: 'untrusted',
  unlessTrusted: 'untrusted',
  'unless-trusted': 'untrusted',
  'on-request': 'on-request',
  onRequest: 'on-request',
  // The schema has no on-failure; the nearest policy it can express is on-request.
  'on-failure': 'on-request',
  onFailure: 'on-request',
  never: 'never',
} as const;

const sandboxModeSpellings = {
  'read-only': 'read-only',
  readOnly: 'read-only',
  'workspace-write': 'workspace-write',
  workspaceWrite: 'workspace-write',
  'danger-full-access': 'danger-full-access',
  dangerFullAccess: 'danger-full-access',
} as const;

export const GranularApproval = Type.Object(
  {
    granular: Type.Object({
      mcp_elicitations: Type.Boolean(),
      request_permissions: Type.Optional(Type.Boolean()),
      rules: Type.Boolean(),
      sandbox_approval: Type.Boolean(),
      skill_approval: Type.Optional(Type.Boolean()),
    }),
  },
  { additionalProperties: false },
);

/** The approval policies by name, in the schema's spelling (settings and pickers offer these). */
export const approvalPolicies = ['untrusted', 'on-request', 'never'] as const;
export type ApprovalPolicy = (typeof approvalPolicies)[number];

export const AskForApproval = Type.Union([StringEnum(approvalPolicies), GranularApproval]);
export type AskForApproval = Static<typeof AskForApproval>;
export const AskForApprovalInput = Type.Union([
  StringEnum(Object.keys(approvalSpellings) as (keyof typeof approvalSpellings)[]),
  GranularApproval,
]);
export type AskForApprovalInput = Static<typeof AskForApprovalInput>;

/** The sandbox modes (thread/start's `sandbox`), in the schema's spelling. */
export const sandboxModes = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export const SandboxMode = StringEnum(sandboxModes);
export type SandboxMode = Static<typeof SandboxMode>;
export const SandboxModeInput = StringEnum(
  Object.keys(sandboxModeSpellings) as (keyof typeof sandboxModeSpellings)[],
);
export type SandboxModeInput = Static<typeof SandboxModeInput>;

export function normalizeApprovalPolicy(input: AskForApprovalInput): AskForApproval {
  return typeof input === 'string' ? approvalSpellings[input] : input;
}

/** The spec's onFailure means "retry outside the sandbox after approval"; keep that intent apart. */
export function isOnFailure(input: AskForApprovalInput): boolean {
  return input === 'onFailure' || input === 'on-failure';
}

export function normalizeSandboxMode(input: SandboxModeInput): SandboxMode {
  return sandboxModeSpellings[input];
}

const sandboxPolicyTypes = {
  readOnly: 'readOnly',
  'read-only': 'readOnly',
  workspaceWrite: 'workspaceWrite',
  'workspace-write': 'workspaceWrite',
  dangerFullAccess: 'dangerFullAccess',
  'danger-full-access': 'dangerFullAccess',
  externalSandbox: 'externalSandbox',
  'external-sandbox': 'externalSandbox',
} as const;

export const SandboxPolicy = Type.Union([
  Type.Object({ type: Type.Literal('dangerFullAccess') }),
  Type.Object({ type: Type.Literal('readOnly'), networkAccess: Type.Optional(Type.Boolean()) }),
  Type.Object({
    type: Type.Literal('externalSandbox'),
    networkAccess: Type.Optional(StringEnum(['restricted', 'enabled'])),
  }),
  Type.Object({
    type: Type.Literal('workspaceWrite'),
    writableRoots: Type.Optional(Type.Array(Type.String())),
    networkAccess: Type.Optional(Type.Boolean()),
    excludeTmpdirEnvVar: Type.Optional(Type.Boolean()),
    excludeSlashTmp: Type.Optional(Type.Boolean()),
  }),
]);
export type SandboxPolicy = Static<typeof SandboxPolicy>;

/** The policy type a sandbox mode stands for (turn/start takes a policy where thread/start takes a mode). */
export const policyTypeOfMode = {
  'read-only': 'readOnly',
  'workspace-write': 'workspaceWrite',
  'danger-full-access': 'dangerFullAccess',
} as const satisfies Record<SandboxMode, SandboxPolicy['type']>;

/** The mode a policy is named by; undefined for an external sandbox, which no mode names. */
export function sandboxModeOf(policy: SandboxPolicy): SandboxMode | undefined {
  return sandboxModes.find((mode) => policyTypeOfMode[mode] === policy.type);
}

export const SandboxPolicyInput = Type.Object(
  {
    type: StringEnum(Object.keys(sandboxPolicyTypes) as (keyof typeof sandboxPolicyTypes)[]),
    writableRoots: Type.Optional(Type.Array(Type.String())),
    networkAccess: Type.Optional(Type.Union([Type.Boolean(), StringEnum(['restricted', 'enabled'])])),
    excludeTmpdirEnvVar: Type.Optional(Type.Boolean()),
    excludeSlashTmp: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);
export type SandboxPolicyInput = Static<typeof SandboxPolicyInput>;

export function normalizeSandboxPolicy(input: SandboxPolicyInput): SandboxPolicy {
  const type = sandboxPolicyTypes[input.type];
  const network = input.networkAccess;
  switch (type) {
    case 'dangerFullAccess':
      return { type };
    case 'readOnly':
      return { type, networkAccess: network === true || network === 'enabled' };
    case 'externalSandbox':
      return { type, networkAccess: network === true || network === 'enabled' ? 'enabled' : 'restricted' };
    case 'workspaceWrite':
      return {
        type,
        writableRoots: input.writableRoots ?? [],
        networkAccess: network === true || network === 'enabled',
        excludeTmpdirEnvVar: input.excludeTmpdirEnvVar ?? false,
        excludeSlashTmp: input.excludeSlashTmp ?? false,
      };
  }
}

export const ApprovalsReviewer = StringEnum(['user', 'auto_review', 'guardian_subagent']);
export const Personality = StringEnum(['none', 'friendly', 'pragmatic']);
export const ReasoningEffort = Type.String({ minLength: 1 });
export const SortDirection = StringEnum(['asc', 'desc']);
export type SortDirection = Static<typeof SortDirection>;
// `recency_at` is the time of a thread's last activity (its updated_at here); `section_position`
// is one section's own order (thread/list with a sectionId).
export const ThreadSortKey = StringEnum(['created_at', 'updated_at', 'recency_at', 'section_position']);
export type ThreadSortKey = Static<typeof ThreadSortKey>;
/** The orders a thread store keeps. */
export type StoredSortKey = Extract<ThreadSortKey, 'created_at' | 'updated_at'>;
export const ThreadSourceKind = StringEnum([
  'cli',
  'vscode',
  'exec',
  'appServer',
  'subAgent',
  'subAgentReview',
  'subAgentCompact',
  'subAgentThreadSpawn',
  'subAgentOther',
  'unknown',
]);
export type ThreadSourceKind = Static<typeof ThreadSourceKind>;
