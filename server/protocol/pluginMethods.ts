// Plugins: folders listed in a local marketplace file that bundle skills, apps and MCP server
// definitions. plugin/list shows the marketplaces, plugin/read one plugin's parts, and
// plugin/install and plugin/uninstall copy it into Threadline's home or remove it.
import { Type } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';
import { SkillInterface } from './skillMethods';

export const PluginInstallPolicy = StringEnum(['NOT_AVAILABLE', 'AVAILABLE', 'INSTALLED_BY_DEFAULT']);
export const PluginAuthPolicy = StringEnum(['ON_INSTALL', 'ON_USE']);

/** Threadline installs local folders only. */
export const PluginSource = Shape({ type: Type.Literal('local'), path: Type.String() });

export const PluginInterface = Shape({
  displayName: Opt(Type.String()),
  shortDescription: Opt(Type.String()),
  longDescription: Opt(Type.String()),
  developerName: Opt(Type.String()),
  category: Opt(Type.String()),
  brandColor: Opt(Type.String()),
  websiteUrl: Opt(Type.String()),
  capabilities: Type.Array(Type.String()),
  screenshots: Type.Array(Type.String()),
  screenshotUrls: Type.Array(Type.String()),
});

export const PluginSummary = Shape({
  /** `<name>@<marketplace>`. */
  id: Type.String(),
  name: Type.String(),
  source: PluginSource,
  installed: Type.Boolean(),
  enabled: Type.Boolean(),
  installPolicy: PluginInstallPolicy,
  authPolicy: PluginAuthPolicy,
  interface: Nullable(PluginInterface),
  keywords: Type.Array(Type.String()),
  localVersion: Nullable(Type.String()),
});

export const PluginMarketplaceEntry = Shape({
  name: Type.String(),
  /** The marketplace file. */
  path: Nullable(Type.String()),
  interface: Nullable(Shape({ displayName: Nullable(Type.String()) })),
  plugins: Type.Array(PluginSummary),
});

export const MarketplaceLoadErrorInfo = Shape({ marketplacePath: Type.String(), message: Type.String() });

export const PluginListParams = Params({
  /** Working directories whose repositories' marketplaces are listed too. */
  cwds: Opt(Type.Array(Type.String())),
  forceRefetch: Type.Optional(Type.Boolean()),
  marketplaceKinds: Opt(Type.Array(Type.String())),
});
export const PluginListResponse = Shape({
  marketplaces: Type.Array(PluginMarketplaceEntry),
  marketplaceLoadErrors: Type.Array(MarketplaceLoadErrorInfo),
  featuredPluginIds: Type.Array(Type.String()),
});

const SkillSummary = Shape({
  name: Type.String(),
  description: Type.String(),
  shortDescription: Opt(Type.String()),
  interface: Opt(SkillInterface),
  path: Opt(Type.String()),
  enabled: Type.Boolean(),
});

export const AppSummary = Shape({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  installUrl: Nullable(Type.String()),
  category: Nullable(Type.String()),
});

const PluginTarget = {
  /** The marketplace file that lists the plugin. */
  marketplacePath: Opt(Type.String()),
  pluginName: Type.String(),
  remoteMarketplaceName: Opt(Type.String()),
};

export const PluginReadParams = Params(PluginTarget);
export const PluginReadResponse = Shape({
  plugin: Shape({
    summary: PluginSummary,
    marketplaceName: Type.String(),
    marketplacePath: Nullable(Type.String()),
    description: Nullable(Type.String()),
    skills: Type.Array(SkillSummary),
    apps: Type.Array(AppSummary),
    mcpServers: Type.Array(Type.String()),
    hooks: Type.Array(Type.Never()),
    appTemplates: Type.Array(Type.Never()),
  }),
});

export const PluginInstallParams = Params({ ...PluginTarget, installAttemptId: Opt(Type.String()) });
export const PluginInstallResponse = Shape({
  authPolicy: PluginAuthPolicy,
  appsNeedingAuth: Type.Array(AppSummary),
});

export const PluginUninstallParams = Params({ pluginId: Type.String() });
export const PluginUninstallResponse = Shape({});

/** The marketplaces with installed plugins, each listing those (and any suggestion asked for). */
export const PluginInstalledParams = Params({
  cwds: Opt(Type.Array(Type.String())),
  /** Plugins to list although not installed, when a listed marketplace has them. */
  installSuggestionPluginNames: Opt(Type.Array(Type.String())),
});
export const PluginInstalledResponse = Shape({
  marketplaces: Type.Array(PluginMarketplaceEntry),
  marketplaceLoadErrors: Type.Array(MarketplaceLoadErrorInfo),
});

/** Brings installed copies up to date with their sources and reports what changed since the last pass. */
export const PluginReconcileParams = Params({ reason: Opt(Type.String()) });
export const PluginReconcileChangedPlugin = Shape({
  id: Type.String(),
  hasSkills: Type.Boolean(),
  hasApps: Type.Boolean(),
  hasMcps: Type.Boolean(),
  hasHooks: Type.Boolean(),
});
export const PluginReconcileResponse = Shape({
  changedPlugins: Type.Array(PluginReconcileChangedPlugin),
  /** Remote plugins are the reference's cloud's; Threadline has none, so these stay empty. */
  failedRemotePluginIds: Type.Array(Type.String()),
  failedMaterializationRemotePluginIds: Type.Array(Type.String()),
});

/** One skill's SKILL.md of a marketplace's plugin, installed or not (names as in plugin/list). */
export const PluginSkillReadParams = Params({
  remoteMarketplaceName: Type.String(),
  remotePluginId: Type.String(),
  skillName: Type.String(),
});
export const PluginSkillReadResponse = Shape({ contents: Nullable(Type.String()) });
