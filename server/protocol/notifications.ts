// Notifications the server sends about threads.
import { Type } from '@sinclair/typebox';
import { Nullable, Shape } from './schema';
import { Thread, ThreadStatus } from './thread';
import { turnNotifications } from './turnMethods';
import { accountNotifications } from './accountMethods';
import { commandExecutionNotifications } from './commandExecution';
import { commandNotifications } from './commandMethods';
import { serverRequestNotifications } from './serverRequests';
import { fileChangeNotifications } from './fileChange';
import { mcpNotifications } from './mcp';
import { windowsSandboxNotifications } from './feedbackMethods';
import { externalAgentConfigNotifications } from './externalAgentConfig';
import { skillNotifications } from './skillMethods';
import { appNotifications } from './appMethods';
import { fsWatchNotifications, fuzzySearchNotifications } from './fsMethods';
import { itemUpdateNotifications } from './itemUpdates';
import { threadSectionNotifications } from './threadSectionMethods';
import { threadGoalNotifications } from './threadGoal';
import { threadAttachmentNotifications } from './threadAttachmentMethods';
import { hookNotifications } from './hooks';

const ThreadId = { threadId: Type.String() };

export const serverNotifications = {
  'thread/started': Shape({ thread: Thread }),
  'thread/status/changed': Shape({ ...ThreadId, status: ThreadStatus }),
  'thread/archived': Shape(ThreadId),
  'thread/unarchived': Shape(ThreadId),
  'thread/closed': Shape(ThreadId),
  'thread/deleted': Shape(ThreadId),
  'thread/name/updated': Shape({ ...ThreadId, threadName: Nullable(Type.String()) }),
  ...turnNotifications,
  ...accountNotifications,
  ...commandExecutionNotifications,
  ...commandNotifications,
  ...serverRequestNotifications,
  ...fileChangeNotifications,
  ...mcpNotifications,
  ...windowsSandboxNotifications,
  ...externalAgentConfigNotifications,
  ...skillNotifications,
  ...appNotifications,
  ...fuzzySearchNotifications,
  ...fsWatchNotifications,
  ...itemUpdateNotifications,
  ...threadSectionNotifications,
  ...threadGoalNotifications,
  ...threadAttachmentNotifications,
  ...hookNotifications,
} as const;
