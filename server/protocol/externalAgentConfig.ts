// externalAgentConfig/detect and /import: bring another agent's setup (Claude Code's CLAUDE.md,
// skills and MCP servers) over to ours, and the history of such imports. Shapes of the reference schema.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';

export const MigrationItemType = StringEnum([
  'AGENTS_MD',
  'CONFIG',
  'SKILLS',
  'PLUGINS',
  'MCP_SERVER_CONFIG',
  'SUBAGENTS',
  'HOOKS',
  'COMMANDS',
  'MEMORY',
  'SESSIONS',
]);
const Named = Type.Object({ name: Type.String() });
const MigrationDetails = Type.Object({
  skills: Type.Optional(Type.Array(Named)),
  mcpServers: Type.Optional(Type.Array(Named)),
  commands: Type.Optional(Type.Array(Named)),
  hooks: Type.Optional(Type.Array(Named)),
  subagents: Type.Optional(Type.Array(Named)),
  memory: Type.Optional(Type.Array(Type.String())),
  plugins: Type.Optional(
    Type.Array(Type.Object({ marketplaceName: Type.String(), pluginNames: Type.Array(Type.String()) })),
  ),
  sessions: Type.Optional(
    Type.Array(Type.Object({ cwd: Type.String(), path: Type.String(), title: Opt(Type.String()) })),
  ),
});
export const MigrationItem = Type.Object({
  itemType: MigrationItemType,
  description: Type.String(),
  /** Null or empty: the home; a folder: that repository. */
  cwd: Opt(Type.String()),
  details: Opt(MigrationDetails),
});

export const ExternalAgentConfigDetectParams = Params({
  cwds: Opt(Type.Array(Type.String())),
  includeHome: Type.Optional(Type.Boolean()),
  maxSessionAgeDays: Opt(Type.Integer({ minimum: 0 })),
  maxSessions: Opt(Type.Integer({ minimum: 0 })),
  migrationSource: Opt(Type.String()),
  source: Opt(Type.String()),
});
export const ExternalAgentConfigDetectResponse = Shape({
  items: Type.Array(MigrationItem),
  connectors: Type.Array(
    Type.Object({
      name: Type.String(),
      sessionCount: Type.Integer({ minimum: 0 }),
      source: StringEnum(['remoteMcpServersConfig', 'sessionToolUse']),
    }),
  ),
});

export const ExternalAgentConfigImportParams = Params({
  migrationItems: Type.Array(MigrationItem),
  migrationSource: Opt(Type.String()),
  providerId: Opt(Type.String()),
  source: Opt(Type.String()),
});
export const ExternalAgentConfigImportResponse = Shape({ importId: Type.String() });

const ItemResult = {
  itemType: MigrationItemType,
  cwd: Opt(Type.String()),
  source: Opt(Type.String()),
};
const ImportSuccess = Type.Object({ ...ItemResult, target: Opt(Type.String()), title: Opt(Type.String()) });
const ImportFailure = Type.Object({
  ...ItemResult,
  failureStage: Type.String(),
  message: Type.String(),
  errorType: Opt(Type.String()),
  subErrorType: Opt(Type.String()),
});
export const ImportTypeResult = Type.Object({
  itemType: MigrationItemType,
  successes: Type.Array(ImportSuccess),
  failures: Type.Array(ImportFailure),
});

/** An import a client completed itself (another provider's), kept in the import history. */
export const ExternalAgentConfigImportHistoryRecordParams = Params({
  providerId: Type.String(),
  itemTypeResults: Type.Array(ImportTypeResult),
});
export const ExternalAgentConfigImportHistoryRecordResponse = Shape({ importId: Type.String() });

/** One finished import, ours or one a client recorded. */
export const ImportHistory = Type.Object({
  importId: Type.String(),
  providerId: Nullable(Type.String()),
  completedAtMs: Type.Integer(),
  successes: Type.Array(ImportSuccess),
  failures: Type.Array(ImportFailure),
});
export type ImportHistory = Static<typeof ImportHistory>;
export const ExternalAgentConfigImportHistoriesReadResponse = Shape({
  data: Type.Array(ImportHistory),
  connectors: ExternalAgentConfigDetectResponse.properties.connectors,
});

export const externalAgentConfigNotifications = {
  'externalAgentConfig/import/completed': Shape({
    importId: Type.String(),
    itemTypeResults: Type.Array(ImportTypeResult),
  }),
} as const;
