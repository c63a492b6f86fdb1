// The hooks of one turn: the user's, and the project's the user trusted, that run on the events the
// agent loop offers (SessionStart on a thread's first turn, UserPromptSubmit, PreToolUse, PostToolUse,
// Stop). Every matching hook of an event starts at once,
// as the reference launches them; each run is announced (hook/started, hook/completed), logged with
// its output (secrets scrubbed), and can never fail or hang the turn: a hook that fails or times out
// is reported and the turn goes on.
import { randomUUID } from 'node:crypto';
import type { ApprovalGate } from '../agent/approvalGate';
import type { ActiveTurn } from '../agent/activeTurn';
import type { HookPoints } from '../agent/hookPoints';
import type { ToolCall, ToolPermissions, ToolResult } from '../agent/tool';
import type { ThreadSettings } from '../config/settings';
import { environmentSecrets, scrubber } from '../feedback/scrub';
import { askTrustQuestion } from '../mcp/trustPrompt';
import type { HookEventName, HookRunSummary } from '../protocol/hooks';
import type { Services } from '../services';
import { matches, type HookDefinition } from './hookConfig';
import { verdictOf, type HookVerdict } from './hookOutput';
import { runHookCommand } from './hookProcess';
import { discoverHooks } from './hookSources';

/** The events Threadline runs hooks on; hooks of other events are listed, with a warning, not run. */
export const RUN_EVENTS: ReadonlySet<HookEventName> = new Set([
  'sessionStart',
  'userPromptSubmit',
  'preToolUse',
  'postToolUse',
  'stop',
]);

// Of a hook's output, this much goes into the log line.
const LOGGED_OUTPUT_CHARS = 2000;

export async function hooksForTurn(
  services: Services,
  active: ActiveTurn,
  settings: ThreadSettings,
  gate: ApprovalGate,
  permissions: ToolPermissions,
  /** The thread's first turn: its SessionStart hooks run (source "startup"). */
  firstTurn: boolean,
): Promise<HookPoints | undefined> {
  const inventory = await discoverHooks(services.home, settings.cwd);
  for (const { path, message } of inventory.errors) services.log.warn(`hooks: ${path}: ${message}`);
  const runnable = inventory.hooks.filter((h) => RUN_EVENTS.has(h.event) && !inventory.disabled.has(h.key));
  const turn = { threadId: active.threadId, turnId: active.turnId };
  // Nobody can be asked under `never`: a project's hooks then run only if trusted before.
  const ask =
    settings.approvalPolicy === 'never' ? null : (hook: HookDefinition) => askToTrustHook(gate, turn, hook);
  const hooks = [
    ...runnable.filter((h) => h.source === 'user'),
    ...(await services.hookTrust.admit(
      runnable.filter((h) => h.source === 'project'),
      ask,
      services.log,
    )),
  ];
  if (hooks.length === 0) return undefined;
  return new TurnHooks(hooks, {
    services,
    active,
    settings,
    permissions,
    firstTurn,
    environment: await services.commandEnvironment(),
    shell: await services.commandShell(),
  });
}

/** Asks whether a project's hook may run, naming its file and exactly what it runs. */
function askToTrustHook(
  gate: ApprovalGate,
  turn: { threadId: string; turnId: string },
  hook: HookDefinition,
): Promise<boolean> {
  const on = hook.matcher ? ` for tools matching "${hook.matcher}"` : '';
  return askTrustQuestion(gate, turn, {
    itemId: `hook-trust-${hook.hash.slice(0, 16)}`,
    header: 'Project hook',
    question: `${hook.sourcePath} defines a ${hook.eventKey} hook${on} that runs \`${hook.command}\` on its own, without asking, in this thread's sandbox. Let it run on this project's agent events? Trust it only if you know what it does.`,
    trusted: 'Remember this exact definition; a change asks again.',
    declined: 'Do not run it; asked again after a restart.',
  });
}

interface TurnContext {
  services: Services;
  active: ActiveTurn;
  settings: ThreadSettings;
  permissions: ToolPermissions;
  firstTurn: boolean;
  environment: Awaited<ReturnType<Services['commandEnvironment']>>;
  shell: Awaited<ReturnType<Services['commandShell']>>;
}

class TurnHooks implements HookPoints {
  private readonly scrub = scrubber(environmentSecrets());

  constructor(
    private readonly hooks: HookDefinition[],
    private readonly turn: TurnContext,
  ) {}

  async turnStarted(prompt: string): Promise<{ context: string[]; refused: string | null }> {
    const opening = this.turn.firstTurn
      ? await this.fire('SessionStart', ['startup'], { source: 'startup' })
      : [];
    const submitted = await this.fire('UserPromptSubmit', null, { prompt });
    return { context: contextOf([...opening, ...submitted]), refused: joined(submitted) };
  }

  async beforeTool(call: ToolCall): Promise<string | null> {
    const tool = hookTool(call);
    const verdicts = await this.fire('PreToolUse', tool.names, {
      tool_name: tool.names[0],
      tool_input: tool.input,
      tool_use_id: call.callId,
    });
    // A guard killed by an interrupt said nothing: the call must not slip through.
    if (this.turn.active.signal.aborted)
      return 'The turn was interrupted before its PreToolUse hooks finished.';
    return joined(verdicts);
  }

  async afterTool(call: ToolCall, result: ToolResult): Promise<string | null> {
    const tool = hookTool(call);
    const response =
      typeof result.output === 'string'
        ? result.output
        : result.output.map((part) => (part.type === 'text' ? part.text : '')).join('');
    const verdicts = await this.fire('PostToolUse', tool.names, {
      tool_name: tool.names[0],
      tool_input: tool.input,
      tool_use_id: call.callId,
      tool_response: response,
    });
    const said = [joined(verdicts), ...contextOf(verdicts)].filter((text): text is string => text !== null);
    return said.length ? said.join('\n') : null;
  }

  async stop(lastMessage: string, repeated: boolean): Promise<string | null> {
    const verdicts = await this.fire('Stop', null, {
      stop_hook_active: repeated,
      last_assistant_message: lastMessage,
    });
    return joined(verdicts);
  }

  /** Runs every hook of the event whose matcher takes one of `names` (null: the event has no matcher). */
  private async fire(
    eventKey: string,
    names: string[] | null,
    extra: Record<string, unknown>,
  ): Promise<HookVerdict[]> {
    const chosen = this.hooks.filter(
      (hook) => hook.eventKey === eventKey && (names === null || matches(hook.matcher, names)),
    );
    if (chosen.length === 0) return [];
    const { active, settings, permissions } = this.turn;
    const input = {
      session_id: active.threadId,
      turn_id: active.turnId,
      transcript_path: null,
      cwd: settings.cwd,
      hook_event_name: eventKey,
      model: settings.model,
      permission_mode: permissionMode(permissions),
      ...extra,
    };
    return Promise.all(chosen.map((hook) => this.runOne(hook, input)));
  }

  private async runOne(hook: HookDefinition, input: unknown): Promise<HookVerdict> {
    const { active, services, settings, permissions } = this.turn;
    const id = `hook-${randomUUID()}`;
    const started = Date.now();
    const summary = (verdict: HookVerdict | null): HookRunSummary => ({
      id,
      eventName: hook.event,
      handlerType: 'command',
      executionMode: 'sync',
      scope: hook.event === 'sessionStart' ? 'thread' : 'turn',
      source: hook.source,
      sourcePath: hook.sourcePath,
      displayOrder: hook.displayOrder,
      status: verdict?.status ?? 'running',
      statusMessage: hook.statusMessage,
      startedAt: Math.floor(started / 1000),
      completedAt: verdict ? Math.floor(Date.now() / 1000) : null,
      durationMs: verdict ? Date.now() - started : null,
      entries: verdict?.entries ?? [],
    });
    active.emit.turnEvent('hook/started', { run: summary(null) });
    let verdict: HookVerdict;
    try {
      const result = await runHookCommand({
        command: hook.command,
        cwd: settings.cwd,
        policy: permissions.sandboxPolicy,
        environment: this.turn.environment,
        shell: this.turn.shell,
        timeoutMs: hook.timeoutSec * 1000,
        input,
        signal: active.signal,
      });
      verdict = verdictOf(hook.eventKey, result, hook.timeoutSec);
      const output = result.ran
        ? ` exit ${result.exitCode}${result.timedOut ? ' (timed out)' : ''} in ${result.durationMs} ms; stdout: ${this.excerpt(result.stdout)}; stderr: ${this.excerpt(result.stderr)}`
        : ` ${result.reason}`;
      const line = `hook ${hook.eventKey} ${hook.key} \`${this.scrub(hook.command)}\`: ${verdict.status};${output}`;
      if (verdict.status === 'failed') services.log.warn(line);
      else services.log.info(line);
    } catch (error) {
      // A fault of ours, not the hook's: reported like a failed hook, never thrown into the turn.
      verdict = {
        status: 'failed',
        entries: [{ kind: 'error', text: (error as Error).message }],
        block: null,
      };
      services.log.error(`hook ${hook.eventKey} ${hook.key}: ${(error as Error).message}`);
    }
    active.emit.turnEvent('hook/completed', { run: summary(verdict) });
    return verdict;
  }

  private excerpt(text: string): string {
    const trimmed = text.trim();
    if (trimmed === '') return '(none)';
    const cut = trimmed.length > LOGGED_OUTPUT_CHARS ? `${trimmed.slice(0, LOGGED_OUTPUT_CHARS)}…` : trimmed;
    return JSON.stringify(this.scrub(cut));
  }
}

/** How the reference names a tool to hooks (the shell tool is "Bash"), with the names a matcher may use. */
function hookTool(call: ToolCall): { names: string[]; input: unknown } {
  let args: unknown = call.arguments;
  if (!call.custom) {
    try {
      args = JSON.parse(call.arguments || '{}');
    } catch {
      // The tool reports the bad arguments to the model; the hook sees them as sent.
    }
  }
  const field = (name: string) =>
    typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[name] : undefined;
  if (call.name === 'exec_command') return { names: ['Bash', call.name], input: { command: field('cmd') } };
  if (call.name === 'apply_patch')
    return { names: [call.name, 'Edit', 'Write'], input: { command: call.custom ? args : field('input') } };
  return { names: [call.name], input: args };
}

function permissionMode(permissions: ToolPermissions): string {
  if (permissions.planning) return 'plan';
  const bypass =
    permissions.approvalPolicy === 'never' && permissions.sandboxPolicy.type === 'dangerFullAccess';
  return bypass ? 'bypassPermissions' : 'default';
}

/** What the hooks that blocked said, together; null when none did. */
function joined(verdicts: HookVerdict[]): string | null {
  const reasons = verdicts.flatMap((v) => (v.block === null ? [] : [v.block]));
  return reasons.length ? reasons.join('\n') : null;
}

/** The context the hooks gave for the model. */
const contextOf = (verdicts: HookVerdict[]): string[] =>
  verdicts.flatMap((v) => v.entries.flatMap((e) => (e.kind === 'context' ? [e.text] : [])));
