// The handshake: the first request on every connection.
import { Type } from '@sinclair/typebox';
import { Experimental, Opt, Params, Shape } from './schema';

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
  /**
   * What this server offers beyond the reference protocol; sent only to a client that opted into
   * `experimentalApi`. `acceptWithEdits`: file-change approvals take the `acceptWithEdits` decision.
   * `turnChanges`: thread/turn/changes/list and /revert undo what a turn changed on disk.
   */
  threadline: Type.Optional(
    Experimental(
      Type.Object({ acceptWithEdits: Type.Boolean(), turnChanges: Type.Optional(Type.Boolean()) }),
    ),
  ),
});

/**
 * The handshake's entry of the method table (methods.ts). Validation takes it from here, so that
 * answering `initialize` does not wait for the rest of the table to be built (validate.ts).
 */
export const handshakeRequest = {
  initialize: { params: InitializeParams, result: InitializeResponse },
} as const;
