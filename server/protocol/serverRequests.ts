// Requests the server sends to the client, and what the client answers: today the approvals of a
// command or a file change. Each is tied to a thread; `serverRequest/resolved` tells every client
// that saw it that it no longer waits (answered, or cleared by an interrupt).
import { Type, type Static } from '@sinclair/typebox';
import { CommandAction } from './commandExecution';
import { Experimental, Opt, Shape, StringEnum } from './schema';
import { toolCallRequests } from './toolCallItems';

const ItemRequest = {
  threadId: Type.String(),
  turnId: Type.String(),
  itemId: Type.String(),
  /** When the request was made, Unix milliseconds. */
  startedAtMs: Type.Integer(),
};

export const RequestId = Type.Union([Type.String(), Type.Integer()]);
export type RequestId = Static<typeof RequestId>;

export const NetworkPolicyAmendment = Type.Object({
  host: Type.String(),
  action: StringEnum(['allow', 'deny']),
});
export type NetworkPolicyAmendment = Static<typeof NetworkPolicyAmendment>;

export const NetworkApprovalContext = Type.Object({
  host: Type.String(),
  protocol: StringEnum(['http', 'https', 'socks5Tcp', 'socks5Udp']),
});

export const CommandExecutionApprovalDecision = Type.Union([
  StringEnum(['accept', 'acceptForSession', 'decline', 'cancel']),
  Type.Object(
    {
      acceptWithExecpolicyAmendment: Type.Object({ execpolicy_amendment: Type.Array(Type.String()) }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { applyNetworkPolicyAmendment: Type.Object({ network_policy_amendment: NetworkPolicyAmendment }) },
    { additionalProperties: false },
  ),
]);
export type CommandExecutionApprovalDecision = Static<typeof CommandExecutionApprovalDecision>;

/** The final content of one file of a change, as the user edited it; `path` as the fileChange item names it. */
export const EditedFile = Type.Object({ path: Type.String(), content: Type.String() });
export type EditedFile = Static<typeof EditedFile>;

/**
 * Threadline's own decision (experimental: a client that initialized with `experimentalApi` only):
 * accept the change with these files' contents instead of the proposed ones. Files of the change
 * not listed are applied as proposed. Servers that support it say so in `initialize`
 * (`threadline.acceptWithEdits`).
 */
export const AcceptWithEditsDecision = Experimental(
  Type.Object(
    {
      acceptWithEdits: Type.Object({
        files: Type.Array(EditedFile),
        /** Also allow further changes under the request's grant root for the session, as acceptForSession does. */
        forSession: Type.Optional(Type.Boolean()),
      }),
    },
    { additionalProperties: false },
  ),
);

export const FileChangeApprovalDecision = Type.Union([
  StringEnum(['accept', 'acceptForSession', 'decline', 'cancel']),
  AcceptWithEditsDecision,
]);
export type FileChangeApprovalDecision = Static<typeof FileChangeApprovalDecision>;

export const CommandExecutionRequestApprovalParams = Shape({
  ...ItemRequest,
  approvalId: Opt(Type.String()),
  command: Opt(Type.String()),
  cwd: Opt(Type.String()),
  reason: Opt(Type.String()),
  commandActions: Opt(Type.Array(CommandAction)),
  proposedExecpolicyAmendment: Opt(Type.Array(Type.String())),
  networkApprovalContext: Opt(NetworkApprovalContext),
  /** The decisions the client may offer; newer than the reference schema, so clients must not rely on it. */
  availableDecisions: Type.Optional(Type.Array(CommandExecutionApprovalDecision)),
});
export type CommandExecutionRequestApprovalParams = Static<typeof CommandExecutionRequestApprovalParams>;

export const FileChangeRequestApprovalParams = Shape({
  ...ItemRequest,
  reason: Opt(Type.String()),
  /** Asks to allow writes under this root for the rest of the session. */
  grantRoot: Opt(Type.String()),
});
export type FileChangeRequestApprovalParams = Static<typeof FileChangeRequestApprovalParams>;

export const serverRequests = {
  'item/commandExecution/requestApproval': {
    params: CommandExecutionRequestApprovalParams,
    result: Shape({ decision: CommandExecutionApprovalDecision }),
  },
  'item/fileChange/requestApproval': {
    params: FileChangeRequestApprovalParams,
    result: Shape({ decision: FileChangeApprovalDecision }),
  },
  ...toolCallRequests,
} as const;
export type ServerRequestMethod = keyof typeof serverRequests;
export type ServerRequestParamsOf<M extends ServerRequestMethod> = Static<
  (typeof serverRequests)[M]['params']
>;
export type ServerRequestResultOf<M extends ServerRequestMethod> = Static<
  (typeof serverRequests)[M]['result']
>;

export const serverRequestNotifications = {
  'serverRequest/resolved': Shape({ threadId: Type.String(), requestId: RequestId }),
} as const;
