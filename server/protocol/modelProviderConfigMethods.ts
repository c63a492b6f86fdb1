// modelProvider/config/write: a provider's settings written into the user's config.toml. Shapes of the
// reference schema; a patch's omitted fields keep their values, an explicit null clears a nullable one.
import { Type, type Static } from '@sinclair/typebox';
import { ModelProviderSummary } from './modelMethods';
import { Opt, Params, Shape, StringEnum } from './schema';

// Closed, as the reference's: a field this server does not know is refused, never silently dropped.
const Patch = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

export const ProviderSettingsPatch = Type.Union([
  Patch({
    type: Type.Literal('customGateway'),
    /** Omitted or null: a new provider, its id made from its name. */
    providerId: Opt(Type.String()),
    name: Type.Optional(Type.String()),
    baseUrl: Opt(Type.String()),
    /** The name of the environment variable holding the key; never the key. */
    envKey: Opt(Type.String()),
  }),
  Patch({
    type: Type.Literal('bedrock'),
    providerId: StringEnum(['amazon-bedrock', 'amazon-bedrock-runtime']),
    profile: Opt(Type.String()),
    region: Opt(Type.String()),
  }),
  Patch({
    type: Type.Literal('gcp'),
    providerId: Type.Literal('gcp'),
    credentialFile: Opt(Type.String()),
    location: Opt(Type.String()),
    projectId: Opt(Type.String()),
  }),
]);
export type ProviderSettingsPatch = Static<typeof ProviderSettingsPatch>;

export const ModelProviderConfigWriteParams = Params({ settings: ProviderSettingsPatch });
export const ModelProviderConfigWriteResponse = Shape({ provider: ModelProviderSummary });
