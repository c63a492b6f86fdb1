// Apps (connectors): tools from an MCP server under a name the user picks, defined in config.toml
// as `[apps.<id>]` (or brought by a plugin). app/list pages through them; app/list/updated carries
// the whole list again when it changes.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape } from './schema';

const StringMap = Type.Record(Type.String(), Type.String());

export const AppInfo = Shape({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  logoUrl: Nullable(Type.String()),
  logoUrlDark: Nullable(Type.String()),
  distributionChannel: Nullable(Type.String()),
  /** Catalog metadata; a local app has none. */
  branding: Nullable(Type.Object({ isDiscoverableApp: Type.Boolean() }, { additionalProperties: true })),
  appMetadata: Nullable(Type.Object({}, { additionalProperties: true })),
  labels: Nullable(StringMap),
  installUrl: Nullable(Type.String()),
  /** Its MCP server is configured, so its tools can be reached. */
  isAccessible: Type.Boolean(),
  /** Not turned off in config.toml (`enabled = false`). */
  isEnabled: Type.Boolean(),
  /** The installed plugins that bring it. */
  pluginDisplayNames: Type.Array(Type.String()),
});
export type AppInfo = Static<typeof AppInfo>;

export const AppsListParams = Params({
  cursor: Opt(Type.String()),
  limit: Opt(Type.Integer({ minimum: 0 })),
  threadId: Opt(Type.String()),
  /** Read config.toml and the plugins again instead of the last list. */
  forceRefetch: Type.Optional(Type.Boolean()),
});
export const AppsListResponse = Shape({ data: Type.Array(AppInfo), nextCursor: Nullable(Type.String()) });

export const appNotifications = {
  'app/list/updated': Shape({ data: Type.Array(AppInfo) }),
} as const;

export const AppToolSummary = Shape({
  name: Type.String(),
  title: Nullable(Type.String()),
  description: Type.String(),
  isEnabled: Type.Boolean(),
  isReadOnly: Type.Boolean(),
  disabledReason: Nullable(Type.String()),
});

export const ConnectorMetadata = Shape({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  distributionChannel: Nullable(Type.String()),
  iconUrl: Nullable(Type.String()),
  iconUrlDark: Nullable(Type.String()),
  installUrl: Nullable(Type.String()),
  pluginDisplayNames: Type.Array(Type.String()),
  /** With includeTools: the tools its MCP server offers, and whether the app lets the model use each. */
  toolSummaries: Nullable(Type.Array(AppToolSummary)),
});

export const AppsReadParams = Params({
  appIds: Type.Array(Type.String(), { maxItems: 100 }),
  includeTools: Type.Optional(Type.Boolean()),
  threadId: Opt(Type.String()),
});
export const AppsReadResponse = Shape({
  apps: Type.Array(ConnectorMetadata),
  missingAppIds: Type.Array(Type.String()),
});

export const AppsInstalledParams = Params({
  /** Start the apps' MCP servers first, so `callable` reflects them running. */
  forceRefresh: Type.Optional(Type.Boolean()),
  threadId: Opt(Type.String()),
});
export const AppsInstalledResponse = Shape({
  apps: Type.Array(
    Shape({
      id: Type.String(),
      enabled: Type.Boolean(),
      /** Enabled, and its MCP server is running with a tool the app offers the model. */
      callable: Type.Boolean(),
      /** The MCP server that carries its tools. */
      runtimeName: Nullable(Type.String()),
    }),
  ),
});
