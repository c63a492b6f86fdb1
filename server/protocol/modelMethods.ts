// Params and results of model/list and modelProvider/list.
import { Type, type Static } from '@sinclair/typebox';
import { ReasoningEffort } from './enums';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';

export const ModelListParams = Params({
  cursor: Opt(Type.String()),
  limit: Opt(Type.Integer({ minimum: 0 })),
  includeHidden: Opt(Type.Boolean()),
  /** A configured provider's id; the config's model_provider when absent. */
  modelProvider: Opt(Type.String()),
});

export const ReasoningEffortOption = Shape({ reasoningEffort: ReasoningEffort, description: Type.String() });
export type ReasoningEffortOption = Static<typeof ReasoningEffortOption>;

export const InputModality = StringEnum(['text', 'image', 'audio']);
export type InputModality = Static<typeof InputModality>;

export const Model = Shape({
  id: Type.String(),
  model: Type.String(),
  displayName: Type.String(),
  description: Type.String(),
  hidden: Type.Boolean(),
  isDefault: Type.Boolean(),
  supportedReasoningEfforts: Type.Array(ReasoningEffortOption),
  defaultReasoningEffort: ReasoningEffort,
  inputModalities: Type.Array(InputModality),
  upgrade: Nullable(Type.String()),
});
export type Model = Static<typeof Model>;

export const ModelListResponse = Shape({ data: Type.Array(Model), nextCursor: Nullable(Type.String()) });

export const ModelProviderListParams = Params({});

const GatewayAuth = Type.Union([
  Shape({ mode: Type.Literal('none') }),
  Shape({ mode: Type.Literal('environmentVariable'), envKey: Type.String() }),
]);

/** OpenAI itself, or any other endpoint (Codex calls those custom gateways). */
export const ProviderSettings = Type.Union([
  Shape({ type: Type.Literal('openai') }),
  Shape({ type: Type.Literal('customGateway'), auth: GatewayAuth }),
]);

export const ModelProviderSummary = Shape({
  id: Type.String(),
  name: Type.String(),
  /** Null when the URL carries credentials. */
  baseUrl: Nullable(Type.String()),
  canEdit: Type.Boolean(),
  settings: ProviderSettings,
});
export type ModelProviderSummary = Static<typeof ModelProviderSummary>;

export const ModelProviderListResponse = Shape({
  data: Type.Array(ModelProviderSummary),
  defaultProviderId: Type.String(),
  canChangeDefault: Type.Boolean(),
});

export const ModelProviderCapabilitiesReadParams = Params({});
/** Hosted tools the configured default provider gets from this server. */
export const ModelProviderCapabilitiesReadResponse = Shape({
  imageGeneration: Type.Boolean(),
  webSearch: Type.Boolean(),
});
