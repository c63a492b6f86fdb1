// feedback/upload (kept as a local bundle: there is no upstream service) and the Windows sandbox
// setup, which has nothing to set up on any platform Threadline confines commands on.
import { Type } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';

export const FeedbackUploadParams = Params({
  classification: Type.String(),
  reason: Opt(Type.String()),
  threadId: Opt(Type.String()),
  includeLogs: Type.Optional(Type.Boolean()),
  extraLogFiles: Opt(Type.Array(Type.String())),
  tags: Opt(Type.Record(Type.String(), Type.String())),
});
export const FeedbackUploadResponse = Shape({
  /** The feedback bundle's id: its folder under $THREADLINE_HOME/feedback/. */
  threadId: Type.String(),
  promptHash: Opt(Type.String()),
});

/** feedback/upload's report, as one ZIP at an absolute path that does not exist yet. */
export const FeedbackSaveParams = Params({ ...FeedbackUploadParams.properties, savePath: Type.String() });
export const FeedbackSaveResponse = Shape({
  savedPath: Type.String(),
  /** The bundle's id, as feedback/upload answers. */
  threadId: Type.String(),
  promptHash: Opt(Type.String()),
});

const WindowsSandboxSetupMode = StringEnum(['elevated', 'unelevated']);
export const WindowsSandboxSetupStartParams = Params({
  mode: WindowsSandboxSetupMode,
  cwd: Opt(Type.String()),
});
export const WindowsSandboxSetupStartResponse = Shape({ started: Type.Boolean() });

export const WindowsSandboxReadinessParams = Params({});
export const WindowsSandboxReadinessResponse = Shape({
  status: StringEnum(['ready', 'notConfigured', 'updateRequired']),
});

export const windowsSandboxNotifications = {
  'windowsSandbox/setupCompleted': Shape({
    mode: WindowsSandboxSetupMode,
    success: Type.Boolean(),
    error: Nullable(Type.String()),
  }),
} as const;
