// Threads and turns as the protocol shows them. Times are Unix seconds; fields named …Ms are
// milliseconds.
import { Type, type Static } from '@sinclair/typebox';
import { ThreadItem } from './items';
import { Experimental, Nullable, Opt, Seconds, StringEnum } from './schema';
import { ThreadSection } from './threadSectionMethods';

export const ThreadActiveFlag = StringEnum(['waitingOnApproval', 'waitingOnUserInput']);

export const ThreadStatus = Type.Union([
  Type.Object({ type: Type.Literal('notLoaded') }),
  Type.Object({ type: Type.Literal('idle') }),
  Type.Object({ type: Type.Literal('systemError') }),
  Type.Object({ type: Type.Literal('active'), activeFlags: Type.Array(ThreadActiveFlag) }),
]);
export type ThreadStatus = Static<typeof ThreadStatus>;

export const GitInfo = Type.Object({
  sha: Opt(Type.String()),
  branch: Opt(Type.String()),
  originUrl: Opt(Type.String()),
});
export type GitInfo = Static<typeof GitInfo>;

export const SessionSource = Type.Union([
  StringEnum(['cli', 'vscode', 'exec', 'appServer', 'unknown']),
  Type.Object({ custom: Type.String() }, { additionalProperties: false }),
]);
export type SessionSource = Static<typeof SessionSource>;

const errorWithStatus = (name: string) =>
  Type.Object(
    { [name]: Type.Object({ httpStatusCode: Opt(Type.Integer({ minimum: 0, maximum: 65535 })) }) },
    { additionalProperties: false },
  );

export const CodexErrorInfo = Type.Union([
  StringEnum([
    'contextWindowExceeded',
    'usageLimitExceeded',
    'rateLimitExceeded',
    'serverOverloaded',
    'modelNotFound',
    'internalServerError',
    'unauthorized',
    'badRequest',
    'threadRollbackFailed',
    'sandboxError',
    'other',
  ]),
  // Threadline's own: the provider needs a key and none is set, so nothing was sent. Distinct from
  // `unauthorized` (a key the provider refused); the reference schema takes any further string.
  Type.Literal('apiKeyMissing'),
  errorWithStatus('httpConnectionFailed'),
  errorWithStatus('responseStreamConnectionFailed'),
  errorWithStatus('responseStreamDisconnected'),
  errorWithStatus('responseTooManyFailedAttempts'),
]);
export type CodexErrorInfo = Static<typeof CodexErrorInfo>;

export const TurnError = Type.Object({
  message: Type.String(),
  codexErrorInfo: Opt(CodexErrorInfo),
  additionalDetails: Opt(Type.String()),
});
export type TurnError = Static<typeof TurnError>;

export const TurnStatus = StringEnum(['completed', 'interrupted', 'failed', 'inProgress']);
export type TurnStatus = Static<typeof TurnStatus>;

export const TurnItemsView = StringEnum(['notLoaded', 'summary', 'full']);
export type TurnItemsView = Static<typeof TurnItemsView>;

export const Turn = Type.Object({
  id: Type.String(),
  items: Type.Array(ThreadItem),
  itemsView: Type.Optional(TurnItemsView),
  status: TurnStatus,
  error: Nullable(TurnError),
  startedAt: Nullable(Seconds),
  completedAt: Nullable(Seconds),
  durationMs: Nullable(Type.Integer()),
});
export type Turn = Static<typeof Turn>;

export const Thread = Type.Object({
  id: Type.String(),
  sessionId: Type.String(),
  preview: Type.String(),
  name: Nullable(Type.String()),
  cwd: Type.String(),
  modelProvider: Type.String(),
  model: Nullable(Type.String()),
  createdAt: Seconds,
  updatedAt: Seconds,
  status: ThreadStatus,
  ephemeral: Type.Boolean(),
  source: SessionSource,
  turns: Type.Array(Turn),
  cliVersion: Type.String(),
  projectId: Nullable(Type.String()),
  forkedFromId: Nullable(Type.String()),
  gitInfo: Nullable(GitInfo),
  path: Nullable(Type.String()),
  /** The client that started the thread (its clientInfo.name), when known. */
  originator: Opt(Type.String()),
  /** The user folder the thread sits in, and since when (threadSection/*, thread/section/move). */
  section: Opt(ThreadSection),
  sectionEnteredAt: Opt(Seconds),
  /**
   * Threadline's own, in thread/list results for a searchTerm, to clients that opted into
   * experimentalApi: the turn that matches best and a line of text around the match.
   */
  searchMatch: Type.Optional(
    Experimental(Type.Object({ turnId: Nullable(Type.String()), snippet: Type.String() })),
  ),
});
export type Thread = Static<typeof Thread>;
