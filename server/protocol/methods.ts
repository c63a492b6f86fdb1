// The method table: every client request this server knows, its params and result schemas, and
// whether it is experimental. Handlers, validation and schema output all derive from it.
import type { Static, TSchema } from '@sinclair/typebox';
import { handshakeRequest } from './initialize';
import { serverNotifications } from './notifications';
import { serverRequests } from './serverRequests';
import * as T from './threadMethods';
import * as U from './turnMethods';
import * as A from './accountMethods';
import * as M from './modelMethods';
import * as R from './reviewMethods';
import * as C from './commandMethods';
import * as F from './feedbackMethods';
import * as X from './externalAgentConfig';
import * as Cfg from './configMethods';
import * as Mcp from './mcp';
import * as K from './turnChanges';
import * as S from './skillMethods';
import * as Ap from './appMethods';
import * as P from './pluginMethods';
import * as Mk from './marketplaceMethods';
import * as Fs from './fsMethods';
import * as I from './threadImport';
import * as Sec from './threadSectionMethods';
import * as G from './threadGoal';
import * as Ti from './threadItemsMethods';
import * as Mt from './mcpToolCallMethods';
import * as Cloud from './cloudMethods';
import * as W from './worktreeMethods';
import * as At from './threadAttachmentMethods';
import * as Mp from './modelProviderConfigMethods';
import * as Hk from './hooks';
import * as Use from './usageMethods';

export interface MethodSpec {
  params: TSchema;
  result: TSchema;
  /** The whole method needs `capabilities.experimentalApi`. */
  experimental?: boolean;
  /** Documented by the spec but absent from the reference schema. */
  specOnly?: boolean;
  /** Always answered with an error naming why (methods/cloudOnly.ts); left out of the generated schema. */
  refused?: boolean;
}

export const clientRequests = {
  ...handshakeRequest,
  'thread/start': { params: T.ThreadStartParams, result: T.ThreadSessionResponse },
  'thread/resume': { params: T.ThreadResumeParams, result: T.ThreadSessionResponse },
  'thread/fork': { params: T.ThreadForkParams, result: T.ThreadSessionResponse },
  'thread/read': { params: T.ThreadReadParams, result: T.ThreadResponse },
  'thread/list': { params: T.ThreadListParams, result: T.ThreadListResponse },
  'thread/loaded/list': { params: T.ThreadLoadedListParams, result: T.ThreadLoadedListResponse },
  'thread/name/set': { params: T.ThreadNameSetParams, result: T.EmptyResponse },
  'thread/archive': { params: T.ThreadIdParams, result: T.EmptyResponse },
  'thread/unarchive': { params: T.ThreadIdParams, result: T.ThreadResponse },
  'thread/unsubscribe': { params: T.ThreadIdParams, result: T.ThreadUnsubscribeResponse },
  'thread/rollback': { params: T.ThreadRollbackParams, result: T.ThreadResponse, specOnly: true },
  'thread/revert': { params: T.ThreadRevertParams, result: T.ThreadResponse },
  'thread/delete': { params: T.ThreadIdParams, result: T.EmptyResponse },
  'thread/turns/list': { params: T.ThreadTurnsListParams, result: T.ThreadTurnsListResponse },
  'threadSection/list': { params: Sec.ThreadSectionListParams, result: Sec.ThreadSectionListResponse },
  'threadSection/create': { params: Sec.ThreadSectionCreateParams, result: Sec.ThreadSectionResponse },
  'threadSection/update': { params: Sec.ThreadSectionUpdateParams, result: Sec.ThreadSectionResponse },
  'threadSection/delete': { params: Sec.ThreadSectionDeleteParams, result: T.EmptyResponse },
  'thread/section/move': { params: Sec.ThreadSectionMoveParams, result: T.EmptyResponse },
  'thread/attachment/add': { params: At.ThreadAttachmentAddParams, result: At.ThreadAttachmentAddResponse },
  'thread/attachment/list': {
    params: At.ThreadAttachmentListParams,
    result: At.ThreadAttachmentListResponse,
  },
  'thread/attachment/remove': {
    params: At.ThreadAttachmentRemoveParams,
    result: At.ThreadAttachmentRemoveResponse,
  },
  'thread/attachmentOwner/list': {
    params: At.ThreadAttachmentOwnerListParams,
    result: At.ThreadAttachmentOwnerListResponse,
  },
  'thread/items/list': { params: Ti.ThreadItemsListParams, result: Ti.ThreadItemsListResponse },
  'thread/inject_items': { params: Ti.ThreadInjectItemsParams, result: Ti.ThreadInjectItemsResponse },
  'thread/goal/set': { params: G.ThreadGoalSetParams, result: G.ThreadGoalSetResponse },
  'thread/goal/get': { params: G.ThreadGoalGetParams, result: G.ThreadGoalGetResponse },
  'thread/goal/clear': { params: G.ThreadGoalClearParams, result: G.ThreadGoalClearResponse },
  'thread/metadata/update': { params: G.ThreadMetadataUpdateParams, result: G.ThreadMetadataUpdateResponse },
  'thread/compact/start': { params: U.ThreadCompactStartParams, result: T.EmptyResponse },
  'turn/start': { params: U.TurnStartParams, result: U.TurnResponse },
  'turn/steer': { params: U.TurnSteerParams, result: U.TurnSteerResponse },
  'turn/interrupt': { params: U.TurnInterruptParams, result: T.EmptyResponse },
  'review/start': { params: R.ReviewStartParams, result: R.ReviewStartResponse },
  'account/read': { params: A.GetAccountParams, result: A.GetAccountResponse },
  'account/login/start': { params: A.LoginAccountParams, result: A.LoginAccountResponse },
  'account/logout': { params: A.EmptyParams, result: T.EmptyResponse },
  'account/login/cancel': { params: A.CancelLoginAccountParams, result: A.CancelLoginAccountResponse },
  'account/rateLimits/read': { params: A.GetAccountRateLimitsParams, result: A.GetAccountRateLimitsResponse },
  'account/usage/read': { params: Use.AccountUsageReadParams, result: Use.AccountUsageReadResponse },
  'model/list': { params: M.ModelListParams, result: M.ModelListResponse },
  'modelProvider/list': { params: M.ModelProviderListParams, result: M.ModelProviderListResponse },
  'modelProvider/capabilities/read': {
    params: M.ModelProviderCapabilitiesReadParams,
    result: M.ModelProviderCapabilitiesReadResponse,
  },
  'modelProvider/config/write': {
    params: Mp.ModelProviderConfigWriteParams,
    result: Mp.ModelProviderConfigWriteResponse,
  },
  'command/exec': { params: C.CommandExecParams, result: C.CommandExecResponse },
  'command/exec/write': { params: C.CommandExecWriteParams, result: T.EmptyResponse },
  'command/exec/resize': { params: C.CommandExecResizeParams, result: T.EmptyResponse },
  'command/exec/terminate': { params: C.CommandExecTerminateParams, result: T.EmptyResponse },
  'thread/shellCommand': { params: C.ThreadShellCommandParams, result: T.EmptyResponse },
  'thread/backgroundTerminals/clean': {
    params: C.ThreadBackgroundTerminalsCleanParams,
    result: T.EmptyResponse,
    experimental: true,
    specOnly: true,
  },
  'mcpServerStatus/list': { params: Mcp.ListMcpServerStatusParams, result: Mcp.ListMcpServerStatusResponse },
  'mcpServer/tool/call': { params: Mt.McpServerToolCallParams, result: Mt.McpServerToolCallResponse },
  'mcpServer/resource/read': { params: Mcp.McpResourceReadParams, result: Mcp.McpResourceReadResponse },
  'config/mcpServer/reload': { params: Mcp.McpServerRefreshParams, result: Mcp.McpServerRefreshResponse },
  'mcpServer/oauth/login': { params: Mcp.McpServerOauthLoginParams, result: Mcp.McpServerOauthLoginResponse },
  'feedback/upload': { params: F.FeedbackUploadParams, result: F.FeedbackUploadResponse },
  'feedback/save': { params: F.FeedbackSaveParams, result: F.FeedbackSaveResponse },
  'windowsSandbox/setupStart': {
    params: F.WindowsSandboxSetupStartParams,
    result: F.WindowsSandboxSetupStartResponse,
  },
  'windowsSandbox/readiness': {
    params: F.WindowsSandboxReadinessParams,
    result: F.WindowsSandboxReadinessResponse,
  },
  'thread/turn/changes/list': {
    params: K.TurnChangesListParams,
    result: K.TurnChangesListResponse,
    experimental: true,
  },
  'thread/turn/changes/revert': {
    params: K.TurnChangesRevertParams,
    result: K.TurnChangesRevertResponse,
    experimental: true,
  },
  'thread/import': { params: I.ThreadImportParams, result: T.ThreadResponse, experimental: true },
  'thread/worktree/apply': {
    params: W.WorktreeApplyParams,
    result: W.WorktreeApplyResponse,
    experimental: true,
  },
  'thread/worktree/discard': {
    params: W.WorktreeDiscardParams,
    result: W.WorktreeDiscardResponse,
    experimental: true,
  },
  'thread/worktree/read': {
    params: W.WorktreeReadParams,
    result: W.WorktreeReadResponse,
    experimental: true,
  },
  'externalAgentConfig/detect': {
    params: X.ExternalAgentConfigDetectParams,
    result: X.ExternalAgentConfigDetectResponse,
  },
  'externalAgentConfig/import': {
    params: X.ExternalAgentConfigImportParams,
    result: X.ExternalAgentConfigImportResponse,
  },
  'externalAgentConfig/import/recordHistory': {
    params: X.ExternalAgentConfigImportHistoryRecordParams,
    result: X.ExternalAgentConfigImportHistoryRecordResponse,
  },
  'externalAgentConfig/import/readHistories': {
    params: A.EmptyParams,
    result: X.ExternalAgentConfigImportHistoriesReadResponse,
  },
  'skills/list': { params: S.SkillsListParams, result: S.SkillsListResponse },
  'skills/config/write': { params: S.SkillsConfigWriteParams, result: S.SkillsConfigWriteResponse },
  'skills/extraRoots/set': { params: S.SkillsExtraRootsSetParams, result: S.SkillsExtraRootsSetResponse },
  'skills/remote/list': { params: S.SkillsRemoteParams, result: S.SkillsRemoteResponse, specOnly: true },
  'skills/remote/export': { params: S.SkillsRemoteParams, result: S.SkillsRemoteResponse, specOnly: true },
  'app/list': { params: Ap.AppsListParams, result: Ap.AppsListResponse },
  'app/read': { params: Ap.AppsReadParams, result: Ap.AppsReadResponse },
  'app/installed': { params: Ap.AppsInstalledParams, result: Ap.AppsInstalledResponse },
  'plugin/list': { params: P.PluginListParams, result: P.PluginListResponse },
  'plugin/read': { params: P.PluginReadParams, result: P.PluginReadResponse },
  'plugin/install': { params: P.PluginInstallParams, result: P.PluginInstallResponse },
  'plugin/uninstall': { params: P.PluginUninstallParams, result: P.PluginUninstallResponse },
  'plugin/installed': { params: P.PluginInstalledParams, result: P.PluginInstalledResponse },
  'plugin/reconcile': { params: P.PluginReconcileParams, result: P.PluginReconcileResponse },
  'plugin/skill/read': { params: P.PluginSkillReadParams, result: P.PluginSkillReadResponse },
  'marketplace/add': { params: Mk.MarketplaceAddParams, result: Mk.MarketplaceAddResponse },
  'marketplace/remove': { params: Mk.MarketplaceRemoveParams, result: Mk.MarketplaceRemoveResponse },
  'marketplace/upgrade': { params: Mk.MarketplaceUpgradeParams, result: Mk.MarketplaceUpgradeResponse },
  'config/read': { params: Cfg.ConfigReadParams, result: Cfg.ConfigReadResponse },
  'config/value/write': { params: Cfg.ConfigValueWriteParams, result: Cfg.ConfigWriteResponse },
  'config/batchWrite': { params: Cfg.ConfigBatchWriteParams, result: Cfg.ConfigWriteResponse },
  'configRequirements/read': {
    params: Cfg.ConfigRequirementsReadParams,
    result: Cfg.ConfigRequirementsReadResponse,
  },
  'hooks/list': { params: Hk.HooksListParams, result: Hk.HooksListResponse },
  'permissionProfile/list': {
    params: Cfg.PermissionProfileListParams,
    result: Cfg.PermissionProfileListResponse,
  },
  'experimentalFeature/list': {
    params: Cfg.ExperimentalFeatureListParams,
    result: Cfg.ExperimentalFeatureListResponse,
  },
  'experimentalFeature/enablement/set': {
    params: Cfg.ExperimentalFeatureEnablementSetParams,
    result: Cfg.ExperimentalFeatureEnablementSetResponse,
  },
  'collaborationMode/list': {
    params: Cfg.CollaborationModeListParams,
    result: Cfg.CollaborationModeListResponse,
    experimental: true,
    specOnly: true,
  },
  'fs/readFile': { params: Fs.FsReadFileParams, result: Fs.FsReadFileResponse },
  'fs/writeFile': { params: Fs.FsWriteFileParams, result: Fs.FsWriteFileResponse },
  'fs/createDirectory': { params: Fs.FsCreateDirectoryParams, result: Fs.FsCreateDirectoryResponse },
  'fs/getMetadata': { params: Fs.FsGetMetadataParams, result: Fs.FsGetMetadataResponse },
  'fs/readDirectory': { params: Fs.FsReadDirectoryParams, result: Fs.FsReadDirectoryResponse },
  'fs/remove': { params: Fs.FsRemoveParams, result: Fs.FsRemoveResponse },
  'fs/copy': { params: Fs.FsCopyParams, result: Fs.FsCopyResponse },
  'fs/watch': { params: Fs.FsWatchParams, result: Fs.FsWatchResponse },
  'fs/unwatch': { params: Fs.FsUnwatchParams, result: Fs.FsUnwatchResponse },
  fuzzyFileSearch: { params: Fs.FuzzyFileSearchParams, result: Fs.FuzzyFileSearchResponse },
  'fuzzyFileSearch/sessionStart': {
    params: Fs.FuzzyFileSearchSessionStartParams,
    result: T.EmptyResponse,
    experimental: true,
    specOnly: true,
  },
  'fuzzyFileSearch/sessionUpdate': {
    params: Fs.FuzzyFileSearchSessionUpdateParams,
    result: T.EmptyResponse,
    experimental: true,
    specOnly: true,
  },
  'fuzzyFileSearch/sessionStop': {
    params: Fs.FuzzyFileSearchSessionStopParams,
    result: T.EmptyResponse,
    experimental: true,
    specOnly: true,
  },
  // Only with a ChatGPT account or OpenAI's cloud: refused with the reason (methods/cloudOnly.ts).
  'account/gatewayOAuth/read': { params: Cloud.GatewayOAuthReadParams, result: Cloud.Refused, refused: true },
  'account/gatewayOAuth/login': {
    params: Cloud.GatewayOAuthLoginParams,
    result: Cloud.Refused,
    refused: true,
  },
  'account/gatewayOAuth/cancel': { params: Cloud.NoParams, result: Cloud.Refused, refused: true },
  'account/rateLimitResetCredit/consume': {
    params: Cloud.RateLimitResetCreditConsumeParams,
    result: Cloud.Refused,
    refused: true,
  },
  'account/sendAddCreditsNudgeEmail': {
    params: Cloud.SendAddCreditsNudgeEmailParams,
    result: Cloud.Refused,
    refused: true,
  },
  'account/workspaceMessages/read': { params: Cloud.NoParams, result: Cloud.Refused, refused: true },
  'account/securitySetup/read': { params: Cloud.NoParams, result: Cloud.Refused, refused: true },
  'thread/approveGuardianDeniedAction': {
    params: Cloud.ThreadApproveGuardianDeniedActionParams,
    result: Cloud.Refused,
    refused: true,
  },
  'plugin/share/save': { params: Cloud.PluginShareSaveParams, result: Cloud.Refused, refused: true },
  'plugin/share/updateTargets': {
    params: Cloud.PluginShareUpdateTargetsParams,
    result: Cloud.Refused,
    refused: true,
  },
  'plugin/share/list': { params: Cloud.NoParams, result: Cloud.Refused, refused: true },
  'plugin/share/checkout': { params: Cloud.PluginShareIdParams, result: Cloud.Refused, refused: true },
  'plugin/share/delete': { params: Cloud.PluginShareIdParams, result: Cloud.Refused, refused: true },
} as const satisfies Record<string, MethodSpec>;

export type ClientMethod = keyof typeof clientRequests;
export type ParamsOf<M extends ClientMethod> = Static<(typeof clientRequests)[M]['params']>;
export type ResultOf<M extends ClientMethod> = Static<(typeof clientRequests)[M]['result']>;

export { serverNotifications, serverRequests };
export type NotificationMethod = keyof typeof serverNotifications;
export type NotificationParamsOf<N extends NotificationMethod> = Static<(typeof serverNotifications)[N]>;
