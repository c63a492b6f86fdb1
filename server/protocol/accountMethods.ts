// Accounts: API keys per model provider. ChatGPT sign-in is not offered; those login types are
// accepted by the schema and answered with a clear error.
import { Type } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';

export const EmptyParams = Params({});
export const GetAccountParams = Params({
  refreshToken: Opt(Type.Boolean()),
  /** Threadline's own: the account of this configured provider instead of the default one. */
  modelProvider: Opt(Type.String()),
});
export const GetAccountResponse = Shape({
  account: Nullable(Type.Object({ type: Type.Literal('apiKey') })),
  requiresOpenaiAuth: Type.Boolean(),
});

export const LoginAccountParams = Params({
  type: StringEnum([
    'apiKey',
    'chatgpt',
    'chatgptDeviceCode',
    'chatgptAuthTokens',
    'amazonBedrock',
    'amazonBedrockAccessKeys',
  ]),
  apiKey: Type.Optional(Type.String()),
});
export const LoginAccountResponse = Shape({ type: Type.Literal('apiKey') });

/** No browser sign-in ever runs here, so every loginId is notFound. */
export const CancelLoginAccountParams = Params({ loginId: Type.String() });
export const CancelLoginAccountResponse = Shape({ status: StringEnum(['canceled', 'notFound']) });

/** A window of a provider's limits: how much of it is used, and when it resets (Unix seconds). */
const RateLimitWindow = Type.Object({
  usedPercent: Type.Integer({ minimum: 0, maximum: 100 }),
  windowDurationMins: Opt(Type.Integer()),
  resetsAt: Opt(Type.Integer()),
});
/** primary: the provider's request limit; secondary: its token limit. limitId is the provider id. */
export const RateLimitSnapshot = Type.Object({
  limitId: Opt(Type.String()),
  limitName: Opt(Type.String()),
  primary: Opt(RateLimitWindow),
  secondary: Opt(RateLimitWindow),
});
export const GetAccountRateLimitsParams = Params({
  excludeResetCreditDetails: Type.Optional(Type.Boolean()),
  supportsLunaReserve: Type.Optional(Type.Boolean()),
});
export const GetAccountRateLimitsResponse = Shape({
  rateLimits: RateLimitSnapshot,
  rateLimitsByLimitId: Opt(Type.Record(Type.String(), RateLimitSnapshot)),
});

export const accountNotifications = {
  'account/rateLimits/updated': Shape({ rateLimits: RateLimitSnapshot }),
  'account/login/completed': Shape({
    loginId: Nullable(Type.String()),
    success: Type.Boolean(),
    error: Nullable(Type.String()),
  }),
  'account/updated': Shape({ authMode: Nullable(StringEnum(['apikey', 'chatgpt'])) }),
} as const;
