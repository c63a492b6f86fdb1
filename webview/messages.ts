// The one message protocol between the extension host and the conversation webview, imported by both
// sides. The host answers `ready` with a snapshot of the thread, then forwards each protocol
// notification for it as a small delta with a per-thread sequence number: a webview that sees a gap
// asks for a resync instead of guessing. Requests from the webview are typed by `HostRequests`.
import type { CommandExecutionItem } from '../server/protocol/commandExecution';
import type { ThreadItem } from '../server/protocol/items';
import type { ApprovalPolicy, SandboxMode } from '../server/protocol/enums';
import type { ResultOf } from '../server/protocol/methods';
import type { CustomPrompt } from './composer/customPrompts';
import type { Model } from '../server/protocol/modelMethods';
import type { ServerNotification } from '../server/protocol/notificationRoutes';
import type { SkillMetadata } from '../server/protocol/skillMethods';
import type { ServerRequestParamsOf, ServerRequestResultOf } from '../server/protocol/serverRequests';
import type { Thread, ThreadStatus, Turn } from '../server/protocol/thread';
import type { ThreadGoal } from '../server/protocol/threadGoal';
import type { UserInput } from '../server/protocol/userInput';

/**
 * A server notification, as the host's server client checked it against its method's schema (the one
 * check, where protocol messages enter the extension); the webview routes it by method.
 */
export type ProtocolNotification = ServerNotification;

/** The part of a thread the webview shows; `turns` may start later than the first turn (paged). */
export interface ThreadSnapshot {
  thread: Omit<Thread, 'turns'>;
  turns: Turn[];
  /** Older turns exist before `turns[0]`; `loadOlderTurns` pages through them. */
  hasOlderTurns: boolean;
  /** Turns sent with their newest items only (long ones); `loadEarlierItems` pages in the rest. */
  earlierItems?: string[];
  settings: ThreadSettings;
  /** The thread's goal (thread/goal/get); absent or null: none, or a server without goals. */
  goal?: ThreadGoal | null;
}

/**
 * The effective settings a thread runs with (from thread/start or thread/resume), in the spellings the
 * composer's pickers use: a granular approval policy reads as on-request, an external sandbox as ''.
 */
export type ThreadSettings = Pick<
  ResultOf<'thread/resume'>,
  'model' | 'modelProvider' | 'reasoningEffort'
> & {
  approvalPolicy: ApprovalPolicy;
  sandbox: SandboxMode | '';
  /** Policies and modes requirements.toml forbids (for every thread), each with the reason shown. */
  forbidden?: Record<string, string>;
  /** The server's named permission profiles the policy picker offers (absent: none offered). */
  profiles?: PermissionProfileChoice[];
};

/** A permission profile of permissionProfile/list as the picker offers it: a policy and a sandbox together. */
export interface PermissionProfileChoice {
  id: string;
  label: string;
  description: string;
  approvalPolicy: ApprovalPolicy;
  sandbox: SandboxMode;
  /** False when requirements.toml forbids it: shown greyed out. */
  allowed: boolean;
}

/** What the host tells the webview about where it lives. */
export interface ViewContext {
  /** `sidebar` is the Conversation view; `panel` an editor tab opened with "Open in Editor". */
  kind: 'sidebar' | 'panel';
  /** The window is in Restricted Mode: every turn runs read-only with untrusted approvals. */
  restricted: boolean;
  /** The server can list and undo what each turn changed on disk (Review / Undo changes). */
  turnChanges?: boolean;
}

export type HostMessage =
  /** The thread to show, whole (on ready, on switching threads, on resync): never sent per update. */
  | { type: 'snapshot'; seq: number; snapshot: ThreadSnapshot; context: ViewContext }
  /** No thread selected: the view shows the composer for a new thread and this workspace's recent threads. */
  | { type: 'empty'; context: ViewContext; reason?: string; start?: StartInfo }
  /**
   * The server stopped for good (it crashed repeatedly or cannot start): the view says why and offers
   * Show Log and Restart; a snapshot or `empty` after a restart replaces it.
   */
  | { type: 'serverFailed'; reason: string; context: ViewContext }
  /** One protocol notification for the shown thread; `seq` is the previous message's + 1. */
  | { type: 'delta'; threadId: string; seq: number; notification: ProtocolNotification }
  /** Older turns, prepended (answer-free push so the list can keep its scroll anchor). */
  | { type: 'olderTurns'; threadId: string; turns: Turn[]; hasOlderTurns: boolean; earlierItems?: string[] }
  /** A long turn's earlier items (thread/items/list), prepended to the ones shown. */
  | { type: 'earlierItems'; threadId: string; turnId: string; items: ThreadItem[]; hasEarlierItems: boolean }
  | { type: 'response'; id: number; result?: unknown; error?: string }
  /** Text to put into the composer (a command in the editor, e.g. "Add selection to thread"). */
  | { type: 'insertText'; text: string }
  /** The user asked to type (the Focus Composer keybinding): the composer takes the focus. */
  | { type: 'focusComposer' }
  /** Scroll to this turn of the shown thread (a search result was picked). */
  | { type: 'revealTurn'; threadId: string; turnId: string }
  /** Every prompt of the shown thread still waiting for the user, oldest first (sent whole: a handful). */
  | { type: 'prompts'; threadId: string; prompts: PromptView[] }
  /** A prompt of the shown thread was settled: its card shows the outcome for a moment. */
  | { type: 'promptSettled'; threadId: string; key: string; outcome: PromptOutcome };

/** The server requests the user answers on a card, by the card's kind. */
export interface PromptRequests {
  commandExecution: 'item/commandExecution/requestApproval';
  fileChange: 'item/fileChange/requestApproval';
  userInput: 'item/tool/requestUserInput';
}
export type PromptKind = keyof PromptRequests;
export type PromptParams<K extends PromptKind> = ServerRequestParamsOf<PromptRequests[K]>;
/** What answers a prompt of that kind: the schema's result of its request. */
export type PromptResultOf<K extends PromptKind> = ServerRequestResultOf<PromptRequests[K]>;
/** An answer to a prompt of any kind. */
export type PromptResult = PromptResultOf<PromptKind>;
export type UserInputParams = PromptParams<'userInput'>;

/**
 * A server request waiting for the user (an approval or the agent's questions), as the extension's
 * registry holds it and the card shows it. `key` is String(JSON-RPC request id), unique while one
 * server runs; `params` are the request's own.
 */
export type PromptView = {
  [K in PromptKind]: {
    key: string;
    kind: K;
    threadId: string;
    turnId: string;
    itemId: string;
    params: PromptParams<K>;
    /** Date.now() when the request arrived. */
    receivedAt: number;
  };
}[PromptKind];

/** How a prompt ended: answered (here or in another view), resolved by the server, or cancelled. */
export type PromptOutcome =
  /** The user answered; this is the result sent to the server. */
  | { answered: PromptResult }
  /** The server no longer waits (another client answered, or it cleared the request). */
  | { resolvedElsewhere: true }
  /** The turn ended or the server went away before anyone answered; says which. */
  | { cancelled: string };

/** What the view with no thread open shows besides the composer. */
export interface StartInfo {
  /** The workspace's name (VS Code's), when a folder is open. */
  workspace?: string;
  /** This workspace's threads, most recently updated first (a handful). */
  recent: RecentThread[];
  /** What a new thread would run with, as far as the editor's settings say. */
  defaults: PickerDefaults;
}

export interface RecentThread {
  id: string;
  label: string;
  /** Unix seconds, as the protocol sends them. */
  updatedAt: number;
}

/** The composer pickers' starting values (a thread's effective settings, or the editor's for a new one). */
export interface PickerDefaults {
  model: string;
  effort: ThreadSettings['reasoningEffort'];
  /** Empty when not known before a thread starts (config.toml decides): the picker is not offered. */
  approvalPolicy: ApprovalPolicy | '';
  sandbox: SandboxMode | '';
  /** Policies and modes requirements.toml forbids, each with the reason the picker shows. */
  forbidden?: Record<string, string>;
  profiles?: PermissionProfileChoice[];
}

/**
 * Whether the selected provider can take a turn, checked before anything is sent. When it cannot, the
 * view shows a setup card and keeps the draft.
 */
export type SetupStatus =
  | { ready: true }
  | {
      ready: false;
      provider: { id: string; name: string };
      /** `noKey`: it needs an API key and has none; `notRunning`: a local server that does not answer. */
      problem: 'noKey' | 'notRunning';
      /** Providers on this machine that answer right now (Ollama, LM Studio), other than this one. */
      local: { id: string; name: string }[];
    };

/** What a setup card's button does; `runSetup` answers with the status afterwards. */
export type SetupAction =
  | { action: 'signIn'; providerId: string }
  | { action: 'useLocal'; providerId: string }
  | { action: 'chooseProvider' };

/** The requests the webview makes, with their params and results. */
export interface HostRequests {
  startTurn: {
    params: { threadId: string; input: UserInput[]; overrides: TurnOverrides };
    result: { turnId: string };
  };
  steerTurn: { params: { threadId: string; turnId: string; input: UserInput[] }; result: { turnId: string } };
  interruptTurn: { params: { threadId: string; turnId: string }; result: Record<string, never> };
  listModels: { params: Record<string, never>; result: { models: Model[] } };
  /**
   * What `@query` can attach: the editor's context (selection, active file, problems, terminal),
   * workspace files and folders, and symbols, unranked (the composer ranks them).
   */
  suggestMentions: { params: { query: string }; result: { suggestions: MentionSuggestion[] } };
  /** The input items for the context a prompt's `@` tokens name, read when it is sent. */
  resolveMentions: { params: { mentions: ContextMention[] }; result: { input: UserInput[] } };
  /** The enabled skills of the view's working directory, for `$name` completion. */
  listSkills: { params: Record<string, never>; result: { skills: SkillMetadata[] } };
  /** The file picker for images; absolute paths. */
  pickImages: { params: Record<string, never>; result: { paths: string[] } };
  /** A pasted image written to a temp file, so it can travel as `localImage`. */
  saveImage: { params: { dataUrl: string }; result: { path: string } };
  loadOlderTurns: { params: { threadId: string }; result: { loaded: number } };
  /** The items of a long turn before `beforeItemId`, a page of them (see `earlierItems`). */
  loadEarlierItems: {
    params: { threadId: string; turnId: string; beforeItemId: string };
    result: { loaded: number };
  };
  /**
   * Edit and resend: drops the thread's last turn (`turnId`, thread/rollback) and starts a new one with
   * the edited input. Refused when `turnId` is no longer the last turn or a turn is running.
   */
  resendEdited: {
    params: { threadId: string; turnId: string; input: UserInput[]; overrides: TurnOverrides };
    result: { turnId: string };
  };
  /** Starts a thread in this workspace with its first turn; the view then shows it. */
  startThread: { params: { input: UserInput[]; overrides: TurnOverrides }; result: { threadId: string } };
  checkSetup: { params: Record<string, never>; result: SetupStatus };
  runSetup: { params: SetupAction; result: SetupStatus };
  /** The user's prompt files and the workspace's, for the `/` menu (read when the menu first opens). */
  listPrompts: { params: Record<string, never>; result: { prompts: CustomPrompt[] } };
  /** `/review`: review/start on the thread, inline; the uncommitted changes unless told what to check. */
  startReview: { params: { threadId: string; instructions: string }; result: { turnId: string } };
  /** `/compact`: thread/compact/start. */
  compactThread: { params: { threadId: string }; result: Record<string, never> };
  /** `/goal <objective>`: thread/goal/set; `/goal` alone: thread/goal/clear. */
  setGoal: { params: { threadId: string; objective: string }; result: Record<string, never> };
  /** `/status`: the provider's rate limits as account/rateLimits/read reports them (null: none known). */
  readRateLimits: { params: Record<string, never>; result: { rateLimits: RateLimits | null } };
  /** `/status`: today's tokens over every thread, with their estimated cost (account/usage/read); null: unknown. */
  readUsageToday: { params: Record<string, never>; result: { today: UsageToday | null } };
}

export interface UsageToday {
  totalTokens: number;
  /** Null when no model used today has a price in config.toml. */
  estimatedUsdMicros: number | null;
  unpricedTokens: number;
}

export type RateLimits = ResultOf<'account/rateLimits/read'>['rateLimits'];
export type HostRequestName = keyof HostRequests;
export type RequestParams<N extends HostRequestName> = HostRequests[N]['params'];
export type RequestResult<N extends HostRequestName> = HostRequests[N]['result'];

/**
 * Context an `@` token in a prompt names, read by the host when the prompt is sent. Paths are as the
 * composer shows them (workspace-relative, or absolute outside it).
 */
export type ContextMention =
  /** `@src/a.ts:10-20`: those lines (an editor selection). */
  | { kind: 'selection'; path: string; startLine: number; endLine: number }
  /** `@src/a.ts`: the whole file. */
  | { kind: 'file'; path: string }
  /** `@src/`: the folder's listing. */
  | { kind: 'folder'; path: string }
  /** `@problems` (the workspace's) or `@problems:src/a.ts` (one file's). */
  | { kind: 'problems'; path?: string }
  /** `@terminal`: the last command in the active terminal, with its output. */
  | { kind: 'terminal' }
  /** `@sym:Name`: a workspace symbol's lines; `location` when the list offered it. */
  | { kind: 'symbol'; name: string; location?: { path: string; startLine: number; endLine: number } };

/** One row of the `@` list. */
export interface MentionSuggestion {
  /** What it is: the editor's context first, then files, folders and symbols. */
  kind: 'context' | 'file' | 'folder' | 'symbol';
  /** The row's text, matched against the query, e.g. `src/a.ts:10-20`. */
  label: string;
  /** Said after the label, e.g. "Selection" or "class in src/a.ts". */
  detail?: string;
  /** A codicon name. */
  icon: string;
  /** What replaces `@query` when it is chosen. */
  insert: string;
  /** Offsets into label of the characters the query matched (the file search's). */
  indices?: number[];
  /** A symbol's lines, so sending needs no second lookup. */
  location?: { path: string; startLine: number; endLine: number };
}

/** Per-turn choices from the composer's pickers; absent fields defer to the thread's settings. */
export interface TurnOverrides {
  model?: string;
  effort?: string;
  approvalPolicy?: ApprovalPolicy;
  sandbox?: SandboxMode;
  /**
   * Plan mode or the default one (turn/start's collaborationMode, which names the model to run; '' for a
   * thread still to start: the one it starts with).
   */
  mode?: { mode: 'plan' | 'default'; model: string };
}

export type WebviewMessage =
  /** The webview's script is running and listening: the host may post from now on. `threadId` is the
   * thread it showed before a reload, from its saved state. */
  | { type: 'ready'; threadId?: string }
  /** A gap in the sequence numbers: send a fresh snapshot. */
  | { type: 'resync'; threadId: string }
  | {
      [N in HostRequestName]: { type: 'request'; id: number; name: N; params: RequestParams<N> };
    }[HostRequestName]
  /** A link in model output: opened by the host with the editor's link handling, never by the page. */
  | { type: 'openLink'; href: string }
  /** A file path shown in an item (a changed file, an image). */
  | { type: 'openFile'; path: string }
  /** One file's change of a fileChange item as a diff editor (`diff` as the item carries it). */
  | { type: 'openFileDiff'; path: string; kind: string; diff: string; movePath?: string }
  /**
   * A turn's changes in the multi-file diff editor: the server's record of them when it keeps one,
   * else `diff` (its turn/diff/updated unified diff).
   */
  | { type: 'openTurnChanges'; turnId: string; diff: string }
  /** Puts back what a turn changed on disk, after the user confirms the list of files. */
  | { type: 'undoTurnChanges'; turnId: string }
  | { type: 'openInEditor'; threadId: string }
  /**
   * `/new` and `/model`: the editor's New Thread and Choose Provider and Model commands; the start
   * view's New Thread in Worktree.
   */
  | { type: 'runCommand'; command: 'newThread' | 'chooseModel' | 'newThreadInWorktree' }
  /** The user's answer to a pending prompt; a prompt already settled ignores it. */
  | { type: 'answerPrompt'; key: string; result: PromptResult }
  /** A pending file change's proposed edit in the diff editor. */
  | { type: 'openPromptDiff'; key: string }
  /** "Manage Workspace Trust" from the composer's Restricted Mode notice. */
  | { type: 'manageTrust' }
  /** A recent thread picked in the view with no thread open. */
  | { type: 'openThread'; threadId: string }
  /** The server-failed state's buttons. */
  | { type: 'showLog' }
  | { type: 'restartServer' }
  /** "Show in Terminal" on a command item: the item as the view has it, output so far included. */
  | { type: 'showInTerminal'; threadId: string; item: CommandExecutionItem };

/** State the webview keeps through hide/show and window reloads (VS Code's getState/setState). */
export interface PersistedState {
  threadId?: string;
  /** Drafts per thread: a thread's unsent text is never replaced by anything else. */
  drafts: Record<string, string>;
  /** Scroll position per thread: the index of the first visible row. */
  scroll: Record<string, number>;
  /**
   * Plan mode per thread ("" a new thread's): true in it; false left in the composer, the server still
   * to be told by the next turn.
   */
  planning?: Record<string, boolean>;
}

export type { ThreadStatus };
