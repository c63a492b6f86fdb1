// Methods of the reference's protocol that only work with a ChatGPT account or OpenAI's cloud
// (gateway sign-in, reset credits, workspace messages, guardian review, plugin sharing). Threadline
// answers each with an error naming why (methods/cloudOnly.ts); their params are still checked, so
// a malformed request is told so first. Shapes as in the reference schema.
import { Type } from '@sinclair/typebox';
import { Opt, Params, StringEnum } from './schema';

const AbsolutePath = Type.String({ description: 'An absolute path on the host' });
const Discoverability = StringEnum(['LISTED', 'UNLISTED', 'PRIVATE']);
const ShareTarget = Type.Object({
  principalId: Type.String(),
  principalType: StringEnum(['user', 'group', 'workspace']),
  role: StringEnum(['reader', 'editor']),
});

export const NoParams = Params({});
export const GatewayOAuthReadParams = Params({ modelProvider: Opt(Type.String()) });
export const GatewayOAuthLoginParams = Params({
  modelProvider: Opt(Type.String()),
  deviceAuth: Type.Optional(Type.Boolean()),
});
export const RateLimitResetCreditConsumeParams = Params({
  idempotencyKey: Type.String(),
  creditId: Opt(Type.String()),
});
export const SendAddCreditsNudgeEmailParams = Params({ creditType: StringEnum(['credits', 'usage_limit']) });
export const ThreadApproveGuardianDeniedActionParams = Params({
  threadId: Type.String(),
  event: Type.Unknown(),
});
export const PluginShareSaveParams = Params({
  pluginPath: AbsolutePath,
  remotePluginId: Opt(Type.String()),
  discoverability: Opt(Discoverability),
  shareTargets: Opt(Type.Array(ShareTarget)),
});
export const PluginShareUpdateTargetsParams = Params({
  remotePluginId: Type.String(),
  discoverability: Discoverability,
  shareTargets: Type.Array(ShareTarget),
});
export const PluginShareIdParams = Params({ remotePluginId: Type.String() });

/** What a refused method would answer: nothing, it always answers an error. */
export const Refused = Type.Never();
