// The handshake: the first request on every connection.
import { Type } from '@sinclair/typebox';
import { Opt, Params, Shape } from './schema';

export const ClientInfo = Type.Object({
  name: Type.String(),
  title: Opt(Type.String()),
  version: Type.String(),
});

export const InitializeParams = Params({
  clientInfo: ClientInfo,
  capabilities: Opt(
    Params({
      experimentalApi: Type.Optional(Type.Boolean()),
      optOutNotificationMethods: Opt(Type.Array(Type.String())),
    }),
  ),
});

export const InitializeResponse = Shape({
  userAgent: Type.String(),
  codexHome: Type.String(),
  platformFamily: Type.String(),
  platformOs: Type.String(),
});
