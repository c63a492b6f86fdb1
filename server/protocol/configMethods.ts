// Params and results of config/read, config/value/write, config/batchWrite, configRequirements/read,
// experimentalFeature/list and collaborationMode/list, field for field as the reference names them.
import { Type, type Static } from '@sinclair/typebox';
import { AskForApproval, ReasoningEffort, SandboxMode } from './enums';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';

const AbsolutePath = Type.String();
const AnyValue = Type.Unknown();

export const ConfigLayerSource = Type.Union([
  Shape({ type: Type.Literal('packagedDefaults'), file: AbsolutePath }),
  Shape({ type: Type.Literal('user'), file: AbsolutePath, profile: Opt(Type.String()) }),
  Shape({ type: Type.Literal('project'), dotCodexFolder: AbsolutePath }),
  Shape({ type: Type.Literal('sessionFlags') }),
]);
export type ConfigLayerSource = Static<typeof ConfigLayerSource>;

export const ConfigLayerMetadata = Shape({ name: ConfigLayerSource, version: Type.String() });
export type ConfigLayerMetadata = Static<typeof ConfigLayerMetadata>;

export const ConfigLayer = Shape({
  name: ConfigLayerSource,
  version: Type.String(),
  config: AnyValue,
  disabledReason: Nullable(Type.String()),
});
export type ConfigLayer = Static<typeof ConfigLayer>;

export const WebSearchMode = StringEnum(['disabled', 'cached', 'indexed', 'live']);
export type WebSearchMode = Static<typeof WebSearchMode>;
export const ReasoningSummary = StringEnum(['auto', 'concise', 'detailed', 'none']);

/** The effective config in config.toml's own key names; keys beyond these pass through as written. */
export const Config = Type.Object(
  {
    model: Opt(Type.String()),
    model_provider: Opt(Type.String()),
    model_reasoning_effort: Opt(ReasoningEffort),
    model_reasoning_summary: Opt(ReasoningSummary),
    approval_policy: Opt(AskForApproval),
    sandbox_mode: Opt(SandboxMode),
    model_context_window: Opt(Type.Integer()),
    model_auto_compact_token_limit: Opt(Type.Integer()),
    web_search: Opt(WebSearchMode),
    developer_instructions: Opt(Type.String()),
    instructions: Opt(Type.String()),
  },
  { additionalProperties: true },
);
export type Config = Static<typeof Config>;

export const ConfigReadParams = Params({
  /** Resolve the project layers (trusted projects only) as seen from this folder. */
  cwd: Opt(Type.String()),
  includeLayers: Type.Optional(Type.Boolean()),
});

export const ConfigReadResponse = Shape({
  config: Config,
  /** Every leaf key path (dotted) to the layer its value comes from. */
  origins: Type.Record(Type.String(), ConfigLayerMetadata),
  /** Highest precedence first. */
  layers: Type.Optional(Nullable(Type.Array(ConfigLayer))),
});

export const MergeStrategy = StringEnum(['replace', 'upsert']);
export type MergeStrategy = Static<typeof MergeStrategy>;

export const ConfigEdit = Type.Object({
  keyPath: Type.String(),
  value: AnyValue,
  mergeStrategy: MergeStrategy,
});
export type ConfigEdit = Static<typeof ConfigEdit>;

export const ConfigValueWriteParams = Params({
  keyPath: Type.String(),
  value: AnyValue,
  mergeStrategy: MergeStrategy,
  filePath: Opt(Type.String()),
  expectedVersion: Opt(Type.String()),
});

export const ConfigBatchWriteParams = Params({
  edits: Type.Array(ConfigEdit),
  filePath: Opt(Type.String()),
  expectedVersion: Opt(Type.String()),
  reloadUserConfig: Type.Optional(Type.Boolean()),
});

export const ConfigWriteResponse = Shape({
  status: StringEnum(['ok', 'okOverridden']),
  version: Type.String(),
  filePath: AbsolutePath,
  overriddenMetadata: Opt(
    Shape({ message: Type.String(), overridingLayer: ConfigLayerMetadata, effectiveValue: AnyValue }),
  ),
});
export type ConfigWriteResponse = Static<typeof ConfigWriteResponse>;

export const NetworkRequirements = Type.Object(
  {
    enabled: Opt(Type.Boolean()),
    allowedDomains: Opt(Type.Array(Type.String())),
    deniedDomains: Opt(Type.Array(Type.String())),
    allowUnixSockets: Opt(Type.Array(Type.String())),
    dangerouslyAllowAllUnixSockets: Opt(Type.Boolean()),
    allowLocalBinding: Opt(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ConfigRequirements = Shape({
  allowedApprovalPolicies: Opt(Type.Array(AskForApproval)),
  allowedSandboxModes: Opt(Type.Array(SandboxMode)),
  allowedWebSearchModes: Opt(Type.Array(WebSearchMode)),
  featureRequirements: Opt(Type.Record(Type.String(), Type.Boolean())),
  network: Opt(NetworkRequirements),
});
export type ConfigRequirements = Static<typeof ConfigRequirements>;

export const ConfigRequirementsReadParams = Params({});
export const ConfigRequirementsReadResponse = Shape({ requirements: Nullable(ConfigRequirements) });

export const ExperimentalFeatureStage = StringEnum([
  'beta',
  'underDevelopment',
  'stable',
  'deprecated',
  'removed',
]);
export type ExperimentalFeatureStage = Static<typeof ExperimentalFeatureStage>;

export const ExperimentalFeature = Shape({
  name: Type.String(),
  stage: ExperimentalFeatureStage,
  displayName: Nullable(Type.String()),
  description: Nullable(Type.String()),
  announcement: Nullable(Type.String()),
  enabled: Type.Boolean(),
  defaultEnabled: Type.Boolean(),
});
export type ExperimentalFeature = Static<typeof ExperimentalFeature>;

export const ExperimentalFeatureListParams = Params({
  cursor: Opt(Type.String()),
  limit: Opt(Type.Integer({ minimum: 0 })),
  threadId: Opt(Type.String()),
});
export const ExperimentalFeatureListResponse = Shape({
  data: Type.Array(ExperimentalFeature),
  nextCursor: Nullable(Type.String()),
});

const FeatureEnablement = Type.Record(Type.String(), Type.Boolean());
/** Features turned on or off for this process; omitted ones are left as they are. */
export const ExperimentalFeatureEnablementSetParams = Params({ enablement: FeatureEnablement });
/** The entries this request updated. */
export const ExperimentalFeatureEnablementSetResponse = Shape({ enablement: FeatureEnablement });

export const ModeKind = StringEnum(['plan', 'default']);
export const CollaborationModeMask = Shape({
  name: Type.String(),
  mode: Nullable(ModeKind),
  model: Nullable(Type.String()),
  reasoning_effort: Nullable(ReasoningEffort),
});
export type CollaborationModeMask = Static<typeof CollaborationModeMask>;

export const CollaborationModeListParams = Params({});
export const CollaborationModeListResponse = Shape({ data: Type.Array(CollaborationModeMask) });

export const PermissionProfileListParams = Params({
  cursor: Opt(Type.String()),
  /** Accepted for the reference's sake: project config may not change approval policy or sandbox. */
  cwd: Opt(Type.String()),
  limit: Opt(Type.Integer({ minimum: 0 })),
});
export const PermissionProfileSummary = Shape({
  id: Type.String(),
  description: Nullable(Type.String()),
  /** False when requirements.toml forbids the preset's approval policy or sandbox mode. */
  allowed: Type.Boolean(),
});
export const PermissionProfileListResponse = Shape({
  data: Type.Array(PermissionProfileSummary),
  nextCursor: Nullable(Type.String()),
});
