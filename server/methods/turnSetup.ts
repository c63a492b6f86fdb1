// Builds what the agent loop needs for one turn: the model client of the thread's provider, the
// frozen system prompt, the model's history (with a note when the previous turn did not finish
// and a context message when where the model works changed), the thread's tools, and the
// compaction limits.
import type { ActiveTurn } from '../agent/activeTurn';
import { agentsMdSection } from '../agent/agentsMd';
import { contextMessage, environmentContext } from '../agent/environmentContext';
import { goalSection } from '../agent/goalContext';
import {
  collaborationInstructions,
  personalityInstructions,
  previousTurnCutOff,
  systemPrompt,
} from '../agent/instructions';
import type { TurnSpec } from '../agent/turnLoop';
import { ModelError, type ConversationEntry } from '../providers/types';
import type { LoadedThread } from '../loadedThread';
import type { Services } from '../services';
import type { ThreadStore } from '../threads/threadStore';
import { threadTools } from '../tools/threadTools';
import { mcpToolsForTurn } from './turnMcpServers';
import { hooksForTurn } from '../hooks/turnHooks';
import { skillsSection } from '../skills/skillMentions';
import type { Skill } from '../skills/skillCatalog';
import { settingsFor } from './threadSettings';
import { saveThreadSettings } from './savedThreadSettings';
import { effectiveSandboxPolicy, type ThreadSettings } from '../config/settings';

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
  if (!store.isEphemeral(threadId)) await saveThreadSettings(services.home, threadId, settings);
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
  const modelHistory = history.modelHistory as ConversationEntry[];
  const context = contextMessage(
    modelHistory,
    await currentContext(services, settings, skills, goalSection(history.goal)),
  );
  if (context) notes.push(context);
  const review = input.reviewInstructions !== undefined;
  const approvals = services.approvals.gateFor(active, thread.grants);
  const planning = settings.collaborationMode?.mode === 'plan';
  const permissions: TurnSpec['permissions'] = planning
    ? // Plan mode changes nothing, whatever the thread's policies allow: the model's word is not enough.
      {
        approvalPolicy: settings.approvalPolicy,
        retryUnsandboxedOnFailure: false,
        sandboxPolicy: { type: 'readOnly' },
        planning,
      }
    : {
        approvalPolicy: settings.approvalPolicy,
        retryUnsandboxedOnFailure: settings.approvalOnFailure,
        sandboxPolicy: effectiveSandboxPolicy(settings),
      };
  return {
    client: access.client,
    request: {
      model: settings.model,
      instructions: input.reviewInstructions ?? systemPrompt(settings.baseInstructions),
      reasoningEffort: settings.reasoningEffort,
      reasoningSummary: settings.reasoningSummary,
      outputSchema: input.outputSchema,
      promptCacheKey: threadId,
    },
    history: review ? [] : modelHistory,
    input: review ? input.entries : [...notes, ...input.entries],
    tools: review
      ? []
      : threadTools({
          config,
          settings,
          commands: thread.commands,
          environment: await services.commandEnvironment(),
          shell: await services.commandShell(),
          skills,
          mcp: await mcpToolsForTurn(services, active, settings, approvals),
        }),
    cwd: settings.cwd,
    permissions,
    approvals,
    checkpoint: services.turnCheckpoint(threadId, active.turnId),
    limits: config.compactionLimits(settings.model),
    usage: thread.usage,
    compactOnly: input.compactOnly,
    planMode: planning,
    rateLimits: (limits) => {
      const snapshot = services.rateLimits.record(access.provider.id, access.provider.name, limits);
      active.emit.threadEvent('account/rateLimits/updated', { rateLimits: snapshot });
    },
    hooks: review
      ? undefined
      : await hooksForTurn(services, active, settings, approvals, permissions, history.turns.length <= 1),
  };
}

/** What the model is told of where it works this turn (environmentContext.ts sends what changed). */
async function currentContext(
  services: Services,
  settings: ThreadSettings,
  skills: Skill[],
  goal: string | null,
) {
  return environmentContext({
    cwd: settings.cwd,
    platform: process.platform,
    shell: (await services.commandShell()).label,
    now: new Date(),
    approvalPolicy: settings.approvalPolicy,
    sandboxPolicy: effectiveSandboxPolicy(settings),
    personality: personalityInstructions(settings.personality),
    developerInstructions: settings.developerInstructions,
    collaborationMode: collaborationInstructions(settings.collaborationMode),
    agentsMd: await agentsMdSection(services.home, settings.cwd),
    skills: skillsSection(skills),
    goal,
  });
}
