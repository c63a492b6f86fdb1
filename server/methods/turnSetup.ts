// Builds what the agent loop needs for one turn: the model client of the thread's provider, the
// system prompt, the model's history (with a note when the previous turn did not finish), the
// tools, and the compaction limits.
import type { ActiveTurn } from '../agent/activeTurn';
import { agentsMdSection } from '../agent/agentsMd';
import { collaborationInstructions, previousTurnCutOff, systemPrompt } from '../agent/instructions';
import type { AgentTool } from '../agent/tool';
import type { TurnSpec } from '../agent/turnLoop';
import { ModelError, type ConversationEntry } from '../providers/types';
import type { LoadedThread } from '../loadedThread';
import type { Services } from '../services';
import type { ThreadStore } from '../threads/threadStore';
import { applyPatchTool } from '../tools/applyPatchTool';
import { updatePlanTool } from '../tools/updatePlan';
import { viewImageTool } from '../tools/viewImage';
import { dynamicTools } from '../tools/dynamicTools';
import { mcpToolsForTurn } from './turnMcpServers';
import { requestUserInputTool } from '../tools/userInputTool';
import { execCommandTool } from '../tools/execCommand';
import { writeStdinTool } from '../tools/writeStdin';
import { readSkillTool } from '../tools/readSkill';
import { skillsSection } from '../skills/skillMentions';
import type { Skill } from '../skills/skillCatalog';
import { settingsFor } from './threadSettings';
import { effectiveSandboxPolicy, type ThreadSettings } from '../config/settings';
import type { ShellEnvironmentPolicy } from '../exec/commandEnv';
import type { CommandSessions } from '../exec/commandSessions';

export interface TurnInput {
  entries: ConversationEntry[];
  outputSchema: unknown;
  compactOnly: boolean;
  /** A review turn: the reviewer's own instructions, a fresh context and no tools. */
  reviewInstructions?: string;
}

export async function prepareTurn(
  services: Services,
  store: ThreadStore,
  thread: LoadedThread,
  active: ActiveTurn,
  input: TurnInput,
): Promise<TurnSpec> {
  const { threadId } = active;
  const settings = await settingsFor(services, store.require(threadId));
  const config = await services.agentConfig();
  const access = await services.modelAccess(settings.modelProvider);
  if (access.missingKey) throw new ModelError('apiKeyMissing', access.missingKey);
  const history = await store.history(threadId);
  // The last turn is this one; the one before it tells whether the model was cut off.
  const previous = history.turns[history.turns.length - 2];
  const notes: ConversationEntry[] =
    previous && (previous.status === 'interrupted' || previous.status === 'inProgress')
      ? [{ kind: 'developer', text: previousTurnCutOff(previous.status) }]
      : [];
  const skills = await services.skills.enabled(settings.cwd);
  const instructions = [
    systemPrompt({
      cwd: settings.cwd,
      baseInstructions: settings.baseInstructions,
      personality: settings.personality,
    }),
    await agentsMdSection(services.home, settings.cwd),
    settings.developerInstructions,
    collaborationInstructions(settings.collaborationMode),
    skillsSection(skills),
  ]
    .filter(Boolean)
    .join('\n\n');
  const review = input.reviewInstructions !== undefined;
  const approvals = services.approvals.gateFor(active, thread.grants);
  return {
    client: access.client,
    request: {
      model: settings.model,
      instructions: input.reviewInstructions ?? instructions,
      reasoningEffort: settings.reasoningEffort,
      reasoningSummary: settings.reasoningSummary,
      outputSchema: input.outputSchema,
      promptCacheKey: threadId,
    },
    history: review ? [] : (history.modelHistory as ConversationEntry[]),
    input: review ? input.entries : [...notes, ...input.entries],
    tools: review
      ? []
      : [
          ...toolsFor(config, settings, thread.commands, await services.commandEnvironment(), skills),
          ...(await mcpToolsForTurn(services, active, settings, approvals)),
        ],
    cwd: settings.cwd,
    permissions: {
      approvalPolicy: settings.approvalPolicy,
      retryUnsandboxedOnFailure: settings.approvalOnFailure,
      sandboxPolicy: effectiveSandboxPolicy(settings),
    },
    approvals,
    checkpoint: services.turnCheckpoint(threadId, active.turnId),
    limits: config.compactionLimits(settings.model),
    usage: thread.usage,
    compactOnly: input.compactOnly,
    planMode: settings.collaborationMode?.mode === 'plan',
    rateLimits: (limits) => {
      const snapshot = services.rateLimits.record(access.provider.id, access.provider.name, limits);
      active.emit.threadEvent('account/rateLimits/updated', { rateLimits: snapshot });
    },
  };
}

function toolsFor(
  config: { updatePlanTool: boolean; viewImageTool: boolean },
  settings: ThreadSettings,
  commands: CommandSessions,
  environment: ShellEnvironmentPolicy,
  skills: Skill[],
): AgentTool[] {
  const builtIn = [
    execCommandTool(commands, environment),
    writeStdinTool(commands),
    ...(config.updatePlanTool ? [updatePlanTool] : []),
    applyPatchTool,
    ...(config.viewImageTool ? [viewImageTool] : []),
    ...(skills.length > 0 ? [readSkillTool(skills)] : []),
    // As in the reference, the model may stop to ask the user questions only in plan mode.
    ...(settings.collaborationMode?.mode === 'plan' ? [requestUserInputTool] : []),
  ];
  // A client's tool cannot shadow a built-in one.
  const taken = new Set(builtIn.map((tool) => tool.spec.name));
  return [...builtIn, ...dynamicTools(settings.dynamicTools.filter((spec) => !taken.has(spec.name)))];
}
