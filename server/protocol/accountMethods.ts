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

export const accountNotifications = {
  'account/login/completed': Shape({
    loginId: Nullable(Type.String()),
    success: Type.Boolean(),
    error: Nullable(Type.String()),
  }),
  'account/updated': Shape({ authMode: Nullable(StringEnum(['apikey', 'chatgpt'])) }),
} as const;
