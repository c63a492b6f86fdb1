// Where the model works, told as messages in the thread's history rather than in the system prompt:
// the thread's first turn carries the whole context, and a later turn carries only what changed
// since (a new day, another policy, an edited AGENTS.md, a new skill) before the user's message.
// What was sent is never rewritten, so every request extends the previous one and a provider's
// prompt cache keeps serving the prefix. Each message records digests of the parts it stated, so
// the next turn (also after a restart) knows what the model was last told.
import { createHash } from 'node:crypto';
import type { AskForApproval, SandboxPolicy } from '../protocol/enums';
import type { ConversationEntry } from '../providers/types';

/** The parts of the context, each as the text the model reads; null: the part does not apply. */
export interface EnvironmentContext {
  cwd: string;
  os: string;
  shell: string;
  date: string;
  approvalPolicy: string;
  sandbox: string;
  network: string;
  personality: string | null;
  developerInstructions: string | null;
  collaborationMode: string | null;
  agentsMd: string | null;
  skills: string | null;
  /** The thread's goal (goalContext.ts). */
  goal: string | null;
}

type Part = keyof EnvironmentContext;
/** Digest per part, as a context message records them. */
export type ContextDigests = Record<Part, string | null>;
export type ContextEntry = Extract<ConversationEntry, { kind: 'developer' }> & { context: ContextDigests };

const LINES: [Part, string][] = [
  ['cwd', 'Working directory'],
  ['os', 'Operating system'],
  ['shell', 'Shell'],
  ['date', 'Date'],
  ['approvalPolicy', 'Approval policy'],
  ['sandbox', 'Sandbox'],
  ['network', 'Network'],
];
const SECTIONS: [Part, string][] = [
  ['personality', 'Personality'],
  ['developerInstructions', 'Developer instructions'],
  ['collaborationMode', 'Collaboration mode'],
  ['agentsMd', 'AGENTS.md instructions'],
  ['skills', 'Skills'],
  ['goal', 'Thread goal'],
];
/** Sections whose text starts with its own heading (agentsMd.ts, skillMentions.ts write them so). */
const OWN_HEADING = new Set<Part>(['agentsMd', 'skills']);

export interface ContextSources {
  cwd: string;
  platform: NodeJS.Platform;
  /** The program commands run in. */
  shell: string;
  now: Date;
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  personality: string | null;
  developerInstructions: string | null;
  collaborationMode: string | null;
  agentsMd: string | null;
  skills: string | null;
  goal: string | null;
}

export function environmentContext(sources: ContextSources): EnvironmentContext {
  return {
    cwd: sources.cwd,
    os: OS_NAMES[sources.platform] ?? sources.platform,
    shell: sources.shell,
    // The day in UTC: the same for every turn of a day wherever the server runs.
    date: sources.now.toISOString().slice(0, 10),
    approvalPolicy: approvalText(sources.approvalPolicy),
    sandbox: sandboxText(sources.sandboxPolicy),
    network: networkText(sources.sandboxPolicy),
    personality: sources.personality,
    developerInstructions: sources.developerInstructions,
    collaborationMode: sources.collaborationMode,
    agentsMd: sources.agentsMd,
    skills: sources.skills,
    goal: sources.goal,
  };
}

/**
 * The message a turn adds before the user's: the whole context when the history holds none (a new
 * thread, or one compacted without it), the parts that changed otherwise, null when nothing did.
 */
export function contextMessage(
  history: ConversationEntry[],
  current: EnvironmentContext,
): ContextEntry | null {
  const previous = lastContextDigests(history);
  const digests = digestsOf(current);
  if (!previous) return { kind: 'developer', text: fullText(current), context: digests };
  // A part newer than the message (recorded before it existed) was absent, as null is.
  const changed = (Object.keys(digests) as Part[]).filter(
    (part) => digests[part] !== (previous[part] ?? null),
  );
  if (changed.length === 0) return null;
  return { kind: 'developer', text: updateText(current, new Set(changed)), context: digests };
}

export function isContextEntry(entry: ConversationEntry): entry is ContextEntry {
  return entry.kind === 'developer' && typeof (entry as Partial<ContextEntry>).context === 'object';
}

function lastContextDigests(history: ConversationEntry[]): ContextDigests | null {
  const last = history.findLast(isContextEntry);
  return last ? last.context : null;
}

function digestsOf(context: EnvironmentContext): ContextDigests {
  const digest = (text: string | null) =>
    text === null ? null : createHash('sha256').update(text).digest('hex').slice(0, 16);
  return Object.fromEntries(
    (Object.keys(context) as Part[]).map((part) => [part, digest(context[part])]),
  ) as ContextDigests;
}

function fullText(context: EnvironmentContext): string {
  const lines = LINES.map(([part, label]) => `${label}: ${context[part]}`);
  const sections = SECTIONS.filter(([part]) => context[part] !== null).map(([part, label]) =>
    section(part, label, context[part]!),
  );
  return ['<threadline_context>', ...lines, ...sections, '</threadline_context>'].join('\n');
}

function updateText(context: EnvironmentContext, changed: Set<Part>): string {
  const lines = LINES.filter(([part]) => changed.has(part)).map(
    ([part, label]) => `${label}: ${context[part]}`,
  );
  const sections = SECTIONS.filter(([part]) => changed.has(part)).map(([part, label]) =>
    context[part] === null
      ? `# ${label}\nNo longer in force: disregard the ${label} given earlier.`
      : section(part, label, context[part]),
  );
  return ['<threadline_context_update>', ...lines, ...sections, '</threadline_context_update>'].join('\n');
}

function section(part: Part, label: string, text: string): string {
  return OWN_HEADING.has(part) ? text : `# ${label}\n${text}`;
}

const OS_NAMES: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'Linux',
  darwin: 'macOS',
  win32: 'Windows',
};

function approvalText(policy: AskForApproval): string {
  if (typeof policy !== 'string') return 'granular (some actions ask the user first, others are refused)';
  const meaning = {
    untrusted: 'commands other than known safe reads ask the user first',
    'on-request': 'commands run in the sandbox; ask to run one outside it when the task needs it',
    never: 'nobody is asked; what the sandbox refuses stays refused',
  }[policy];
  return `${policy} (${meaning})`;
}

function sandboxText(policy: SandboxPolicy): string {
  switch (policy.type) {
    case 'dangerFullAccess':
      return 'full access (commands are not confined)';
    case 'readOnly':
      return 'read-only (commands may read files but not write them)';
    case 'externalSandbox':
      return 'external (the host confines commands)';
    case 'workspaceWrite': {
      const roots = policy.writableRoots?.length ? policy.writableRoots.join(', ') : 'the working directory';
      return `workspace-write (commands may write only inside ${roots})`;
    }
  }
}

function networkText(policy: SandboxPolicy): string {
  if (policy.type === 'dangerFullAccess') return 'enabled';
  if (policy.type === 'externalSandbox') return policy.networkAccess ?? 'restricted';
  return policy.networkAccess ? 'enabled' : 'restricted';
}
