// Hooks: user-configured commands run on agent events (hooks/list, hook/started, hook/completed), as
// the reference schema (Codex 0.169) defines them. Threadline runs command handlers only, so the
// metadata it sends is always the command variant of the reference's union.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';

export const HOOK_EVENT_NAMES = [
  'preModelRequest',
  'postModelRequest',
  'preToolUse',
  'permissionRequest',
  'postToolUse',
  'preCompact',
  'postCompact',
  'sessionStart',
  'sessionEnd',
  'userPromptSubmit',
  'subagentStart',
  'subagentStop',
  'stop',
  'interrupt',
] as const;
export const HookEventName = StringEnum(HOOK_EVENT_NAMES);
export type HookEventName = Static<typeof HookEventName>;

export const HookSource = StringEnum([
  'system',
  'user',
  'project',
  'mdm',
  'sessionFlags',
  'plugin',
  'cloudRequirements',
  'cloudManagedConfig',
  'legacyManagedConfigFile',
  'legacyManagedConfigMdm',
  'unknown',
]);
export type HookSource = Static<typeof HookSource>;

export const HookTrustStatus = StringEnum(['managed', 'untrusted', 'trusted', 'modified']);
export type HookTrustStatus = Static<typeof HookTrustStatus>;

export const HookMetadata = Type.Object({
  handlerType: Type.Literal('command'),
  command: Type.String(),
  async: Type.Boolean(),
  key: Type.String(),
  eventName: HookEventName,
  matcher: Opt(Type.String()),
  statusMessage: Opt(Type.String()),
  timeoutSec: Type.Integer({ minimum: 0 }),
  source: HookSource,
  sourcePath: Type.String(),
  displayOrder: Type.Integer(),
  enabled: Type.Boolean(),
  isManaged: Type.Boolean(),
  currentHash: Type.String(),
  trustStatus: HookTrustStatus,
});
export type HookMetadata = Static<typeof HookMetadata>;

export const HookErrorInfo = Type.Object({ path: Type.String(), message: Type.String() });

export const HooksListEntry = Type.Object({
  cwd: Type.String(),
  hooks: Type.Array(HookMetadata),
  warnings: Type.Array(Type.String()),
  errors: Type.Array(HookErrorInfo),
});
export type HooksListEntry = Static<typeof HooksListEntry>;

export const HooksListParams = Params({
  cwds: Type.Optional(Type.Array(Type.String())),
  threadId: Opt(Type.String()),
});
export const HooksListResponse = Shape({ data: Type.Array(HooksListEntry) });

export const HookRunStatus = StringEnum(['running', 'completed', 'failed', 'blocked', 'stopped']);
export type HookRunStatus = Static<typeof HookRunStatus>;

export const HookOutputEntry = Type.Object({
  kind: StringEnum(['warning', 'stop', 'feedback', 'context', 'error']),
  text: Type.String(),
});
export type HookOutputEntry = Static<typeof HookOutputEntry>;

export const HookRunSummary = Type.Object({
  id: Type.String(),
  eventName: HookEventName,
  handlerType: Type.Literal('command'),
  executionMode: StringEnum(['sync', 'async']),
  scope: StringEnum(['thread', 'turn']),
  source: HookSource,
  sourcePath: Type.String(),
  displayOrder: Type.Integer(),
  status: HookRunStatus,
  statusMessage: Nullable(Type.String()),
  startedAt: Type.Integer(),
  completedAt: Nullable(Type.Integer()),
  durationMs: Nullable(Type.Integer()),
  entries: Type.Array(HookOutputEntry),
});
export type HookRunSummary = Static<typeof HookRunSummary>;

const HookRunParams = Shape({
  threadId: Type.String(),
  turnId: Nullable(Type.String()),
  run: HookRunSummary,
});

export const hookNotifications = {
  'hook/started': HookRunParams,
  'hook/completed': HookRunParams,
} as const;
