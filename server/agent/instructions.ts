// The system prompt: who the agent is and how it works, then the thread's own instructions.
import { platform } from 'node:os';

export interface InstructionSources {
  cwd: string;
  /** Replaces the built-in prompt when the client sets it (thread/start baseInstructions). */
  baseInstructions: string | null;
  /** `friendly`, `pragmatic`, or `none`/null for no personality section. */
  personality: string | null;
}

const BASE = `You are Threadline, a coding agent working inside the user's editor on their project.
You can read and change files and run commands through the tools you are given, within the limits the user has set.
Work carefully: understand the code before changing it, make focused changes that fit the project's style, and verify them when you can.
Keep the user informed with short, concrete messages. When you are done, say what you changed and anything left to do.
Use Markdown for formatting; wrap code, file paths and commands in backticks.`;

export function systemPrompt(sources: InstructionSources): string {
  const environment = [
    `Working directory: ${sources.cwd}`,
    `Platform: ${platform()}`,
    `Date: ${new Date().toISOString().slice(0, 10)}`,
  ].join('\n');
  const personality = PERSONALITIES[sources.personality ?? 'none'] ?? '';
  const base = sources.baseInstructions ?? BASE;
  return `${base}${personality ? `\n\n# Personality\n${personality}` : ''}\n\n# Environment\n${environment}`;
}

const PERSONALITIES: Record<string, string> = {
  friendly:
    'Be warm and encouraging. Explain your reasoning in plain words, acknowledge what the user did well, and make it easy to ask follow-up questions.',
  pragmatic:
    'Be direct and economical. Lead with the result, skip pleasantries, and keep explanations to what the user needs to act.',
};

/** Plan mode: explore without changing anything, then propose a plan the user can accept. */
export const PLAN_MODE_INSTRUCTIONS = `You are in plan mode. Do not modify files or run commands that change anything; read and explore as needed to understand the task.
Then write your plan inside a <proposed_plan> block in your answer: the goal, the steps in order (files and functions to change), and how to verify the result.
Outside the block, keep to a short summary and any questions for the user.`;

/** The instructions a collaboration mode adds: the client's own, else the mode's built-in ones. */
export function collaborationInstructions(
  mode: { mode: 'plan' | 'default'; developerInstructions: string | null } | null,
): string | null {
  if (!mode) return null;
  return mode.developerInstructions ?? (mode.mode === 'plan' ? PLAN_MODE_INSTRUCTIONS : null);
}

/** Told to the model at the start of a turn that follows one that did not finish. */
export function previousTurnCutOff(status: 'interrupted' | 'inProgress'): string {
  return status === 'interrupted'
    ? '<turn_aborted>The user interrupted the previous turn. Anything it was doing may be incomplete; do not resume it unless asked.</turn_aborted>'
    : '<turn_aborted>The previous turn was cut off because the agent stopped unexpectedly. Its work may be incomplete.</turn_aborted>';
}

export const COMPACTION_PROMPT = `The conversation so far is about to be replaced by your summary of it, to free up context.
Write that summary now: the user's goals and requests, decisions made, the current state of the work (files changed, commands run and what they showed), open problems, and the next steps.
Be specific (paths, names, values) and complete enough that the work can continue from the summary alone. Reply with the summary only.`;

export const SUMMARY_PREFIX = 'Summary of the earlier conversation (older messages were compacted):\n\n';
