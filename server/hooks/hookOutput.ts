// What a hook's run means, read as Codex reads it: exit 0 with nothing or plain text goes on (the
// text is context for the model after SessionStart and UserPromptSubmit); exit 0 with a JSON object says more (`decision`, `hookSpecificOutput.permissionDecision`, `systemMessage`,
// …); exit 2 blocks with stderr as the reason; any other exit, a timeout or a hook that could not
// run is a failure reported to the client. A PreToolUse hook guards a tool call, so an answer it
// cannot read (JSON that does not parse, an unknown field, a decision Threadline does not support)
// blocks the call rather than let it through: it fails closed.
import { isPlainTable, type Table } from '../config/tomlFile';
import type { HookOutputEntry, HookRunStatus } from '../protocol/hooks';
import type { HookProcessResult } from './hookProcess';

export interface HookVerdict {
  status: Exclude<HookRunStatus, 'running'>;
  entries: HookOutputEntry[];
  /** PreToolUse: why the call is refused. PostToolUse: feedback for the model. Stop: what to go on with. */
  block: string | null;
}

/** The events whose hooks can block what comes next. */
const BLOCKING = new Set(['PreToolUse', 'PostToolUse', 'Stop', 'UserPromptSubmit']);

/** The events whose hooks' plain output (or `additionalContext`) is context for the model. */
const CONTEXT_EVENTS = new Set(['SessionStart', 'UserPromptSubmit']);

const COMMON_FIELDS: Record<string, (v: unknown) => boolean> = {
  continue: (v) => typeof v === 'boolean',
  stopReason: (v) => typeof v === 'string',
  suppressOutput: (v) => typeof v === 'boolean',
  systemMessage: (v) => typeof v === 'string',
};

const DECISIONS: Record<string, readonly string[]> = {
  PreToolUse: ['approve', 'block'],
  PostToolUse: ['block'],
  Stop: ['block'],
  UserPromptSubmit: ['block'],
};

export function verdictOf(eventKey: string, result: HookProcessResult, timeoutSec: number): HookVerdict {
  const guards = eventKey === 'PreToolUse';
  if (!result.ran) return failed(result.reason);
  if (result.timedOut) return failed(`timed out after ${timeoutSec}s`);
  const stderr = result.stderr.trim();
  if (result.exitCode === 2 && BLOCKING.has(eventKey)) {
    const reason = stderr || `blocked by a ${eventKey} hook (exit code 2)`;
    return { status: 'blocked', entries: [{ kind: 'feedback', text: reason }], block: reason };
  }
  if (result.exitCode !== 0)
    return failed(`exited with code ${result.exitCode}${stderr ? `: ${stderr}` : ''}`);
  const stdout = result.stdout.trim();
  if (!/^[[{]/.test(stdout)) {
    const context =
      stdout && CONTEXT_EVENTS.has(eventKey) ? [{ kind: 'context' as const, text: stdout }] : [];
    return { status: 'completed', entries: context, block: null };
  }
  let answer: unknown;
  try {
    answer = JSON.parse(stdout);
  } catch {
    return malformed('its output starts like JSON but does not parse', guards);
  }
  if (!isPlainTable(answer)) return malformed('its JSON output is not an object', guards);
  const problem = problemWith(eventKey, answer);
  if (problem) return malformed(problem, guards);
  return decided(eventKey, answer);
}

function decided(eventKey: string, answer: Table): HookVerdict {
  const entries: HookOutputEntry[] = [];
  if (typeof answer.systemMessage === 'string') entries.push({ kind: 'warning', text: answer.systemMessage });
  const specific = isPlainTable(answer.hookSpecificOutput) ? answer.hookSpecificOutput : {};
  if (typeof specific.additionalContext === 'string')
    entries.push({ kind: 'context', text: specific.additionalContext });
  const reason = [specific.permissionDecisionReason, answer.reason, answer.stopReason].find(
    (r): r is string => typeof r === 'string' && r.trim() !== '',
  );
  if (answer.continue === false) {
    const text = reason ?? `a ${eventKey} hook asked to stop`;
    entries.push({ kind: 'stop', text });
    return { status: 'stopped', entries, block: eventKey === 'PreToolUse' ? text : null };
  }
  const blocks = answer.decision === 'block' || specific.permissionDecision === 'deny';
  if (!blocks) return { status: 'completed', entries, block: null };
  const text = reason ?? `blocked by a ${eventKey} hook`;
  entries.push({ kind: 'feedback', text });
  return { status: 'blocked', entries, block: text };
}

/** Why an answer cannot be used as the event's, or null. */
function problemWith(eventKey: string, answer: Table): string | null {
  const decisions = DECISIONS[eventKey] ?? [];
  for (const [field, value] of Object.entries(answer)) {
    if (field === 'decision') {
      if (!decisions.includes(value as string))
        return `"decision" must be ${decisions.map((d) => `"${d}"`).join(' or ') || 'absent'} for ${eventKey}`;
    } else if (field === 'reason') {
      if (typeof value !== 'string') return '"reason" must be a string';
    } else if (field === 'hookSpecificOutput') {
      const problem = specificProblem(eventKey, value);
      if (problem) return problem;
    } else if (!COMMON_FIELDS[field]?.(value)) {
      return COMMON_FIELDS[field] ? `"${field}" has the wrong type` : `unknown field "${field}"`;
    }
  }
  if (answer.decision === 'block' && eventKey === 'Stop' && typeof answer.reason !== 'string')
    return '"decision": "block" needs a "reason" for Stop (what the model is asked to do next)';
  return null;
}

function specificProblem(eventKey: string, value: unknown): string | null {
  if (!isPlainTable(value)) return '"hookSpecificOutput" must be an object';
  if (value.hookEventName !== eventKey) return `"hookSpecificOutput.hookEventName" must be "${eventKey}"`;
  for (const [field, inner] of Object.entries(value)) {
    if (field === 'hookEventName') continue;
    if (field === 'additionalContext' && eventKey !== 'Stop') {
      if (typeof inner !== 'string') return '"additionalContext" must be a string';
    } else if (field === 'permissionDecision' && eventKey === 'PreToolUse') {
      // "ask" and input rewriting are the reference's unsupported answers too.
      if (inner !== 'allow' && inner !== 'deny') return `"permissionDecision" must be "allow" or "deny"`;
    } else if (field === 'permissionDecisionReason' && eventKey === 'PreToolUse') {
      if (typeof inner !== 'string') return '"permissionDecisionReason" must be a string';
    } else {
      return `unsupported field "hookSpecificOutput.${field}" for ${eventKey}`;
    }
  }
  return null;
}

const failed = (why: string): HookVerdict => ({
  status: 'failed',
  entries: [{ kind: 'error', text: why }],
  block: null,
});

function malformed(why: string, guards: boolean): HookVerdict {
  if (!guards) return failed(`unusable output: ${why}`);
  const text = `unusable output (${why}), so the tool call is blocked`;
  return { status: 'blocked', entries: [{ kind: 'error', text }], block: `A PreToolUse hook's ${text}.` };
}
