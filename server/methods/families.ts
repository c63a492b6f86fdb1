// Every method family's handlers but the handshake's, in one table (index.ts loads it on first use).
import type { HandlerTable } from '../rpc/dispatcher';
import type { Services } from '../services';
import { threadHandlers } from './thread';
import { turnHandlers } from './turn';
import { accountHandlers } from './account';
import { modelHandlers } from './models';
import { reviewHandlers } from './review';
import { commandHandlers } from './command';
import { backgroundTerminalHandlers } from './commandThread';
import { ThreadSessions } from './threadSessions';
import { feedbackHandlers } from './feedback';
import { externalAgentConfigHandlers } from './externalAgentConfig';
import { mcpHandlers } from './mcp';
import { turnChangesHandlers } from './turnChanges';
import { threadDeleteHandlers } from './threadDelete';
import { skillHandlers } from './skills';
import { appHandlers } from './apps';
import { pluginHandlers } from './plugins';
import { installedPluginHandlers } from './pluginsInstalled';
import { marketplaceHandlers } from './marketplaces';
import { configHandlers } from './config';
import { fsHandlers } from './fs';
import { fsWatchHandlers } from './fsWatch';
import { permissionProfileHandlers } from './permissionProfiles';
import { fuzzySearchHandlers } from './fuzzySearch';
import { threadSectionHandlers } from './threadSections';
import { threadGoalHandlers } from './threadGoal';
import { cloudOnlyHandlers } from './cloudOnly';
import { worktreeHandlers } from './worktree';
import { attachmentHandlers } from './attachments';
import { modelProviderConfigHandlers } from './modelProviderConfig';
import { hookHandlers } from './hooks';
import { usageHandlers } from './usage';

export function familyHandlers(services: Services): HandlerTable {
  const sessions = new ThreadSessions(services);
  return {
    ...threadHandlers(services, sessions),
    ...threadGoalHandlers(services, sessions),
    ...turnHandlers(services),
    ...accountHandlers(services),
    ...modelHandlers(services),
    ...reviewHandlers(services, sessions),
    ...commandHandlers(services),
    ...backgroundTerminalHandlers(services),
    ...feedbackHandlers(services),
    ...externalAgentConfigHandlers(services),
    ...mcpHandlers(services),
    ...turnChangesHandlers(services),
    ...threadDeleteHandlers(services),
    ...skillHandlers(services),
    ...appHandlers(services),
    ...pluginHandlers(services),
    ...installedPluginHandlers(services),
    ...marketplaceHandlers(services),
    ...configHandlers(services),
    ...fsHandlers(),
    ...fsWatchHandlers(services.log),
    ...permissionProfileHandlers(services),
    ...fuzzySearchHandlers(),
    ...threadSectionHandlers(services),
    ...cloudOnlyHandlers(),
    ...worktreeHandlers(services),
    ...attachmentHandlers(services),
    ...modelProviderConfigHandlers(services),
    ...hookHandlers(services),
    ...usageHandlers(services),
  };
}
