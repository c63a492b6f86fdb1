// The tools a thread offers the model: one list for the whole thread, in a fixed order with fixed
// schemas, so the tools a provider caches after the system prompt stay valid from turn to turn. A
// tool that cannot be used in the current mode stays listed and answers with an error saying why
// (request_user_input outside plan mode, apply_patch and the client's dynamic tools in it, read_skill
// before any skill exists); in plan mode exec_command and MCP tools refuse what does not only read
// (ToolPermissions.planning).
// MCP tools come last, sorted by name, so re-listing a server does not reorder them.
import { ToolInputError, type AgentTool } from '../agent/tool';
import type { ThreadSettings } from '../config/settings';
import type { ShellEnvironmentPolicy } from '../exec/commandEnv';
import type { CommandSessions } from '../exec/commandSessions';
import type { CommandShell } from '../exec/shellSelection';
import type { Skill } from '../skills/skillCatalog';
import { applyPatchTool } from './applyPatchTool';
import { dynamicTools } from './dynamicTools';
import { execCommandTool } from './execCommand';
import { readSkillTool } from './readSkill';
import { updatePlanTool } from './updatePlan';
import { requestUserInputTool } from './userInputTool';
import { viewImageTool } from './viewImage';
import { writeStdinTool } from './writeStdin';

export interface ThreadToolSources {
  config: { updatePlanTool: boolean; viewImageTool: boolean };
  settings: ThreadSettings;
  commands: CommandSessions;
  environment: ShellEnvironmentPolicy;
  shell: CommandShell;
  skills: Skill[];
  mcp: AgentTool[];
}

export function threadTools(sources: ThreadToolSources): AgentTool[] {
  const { config, settings, skills } = sources;
  const planMode = settings.collaborationMode?.mode === 'plan';
  const builtIn = [
    execCommandTool(sources.commands, sources.environment, sources.shell),
    writeStdinTool(sources.commands),
    ...(config.updatePlanTool ? [updatePlanTool] : []),
    planMode ? refusing(applyPatchTool, NO_PATCHES_IN_PLAN_MODE) : applyPatchTool,
    ...(config.viewImageTool ? [viewImageTool] : []),
    readSkillTool(skills),
    // As in the reference, the model may stop to ask the user questions only in plan mode.
    planMode ? requestUserInputTool : refusing(requestUserInputTool, NOT_IN_PLAN_MODE),
  ];
  // A client's tool cannot shadow a built-in one.
  const taken = new Set(builtIn.map((tool) => tool.spec.name));
  const mcp = [...sources.mcp].sort((a, b) =>
    a.spec.name < b.spec.name ? -1 : a.spec.name > b.spec.name ? 1 : 0,
  );
  const dynamic = dynamicTools(settings.dynamicTools.filter((spec) => !taken.has(spec.name)));
  // What a client's tool does is the client's secret: plan mode cannot tell a read from a write, so
  // none runs there (fail closed), and the client is never asked.
  const allowed = planMode ? dynamic.map((tool) => refusing(tool, notInPlanMode(tool.spec.name))) : dynamic;
  return [...builtIn, ...allowed, ...mcp];
}

const notInPlanMode = (name: string) =>
  `${name} does not run in plan mode: it is the client's tool, and nothing may change until the user accepts the plan. Put what it would do in your <proposed_plan> instead.`;

const NO_PATCHES_IN_PLAN_MODE =
  'apply_patch does not run in plan mode: nothing may change until the user accepts the plan. Put the change in your <proposed_plan> instead.';

const NOT_IN_PLAN_MODE =
  'request_user_input works only in plan mode, and this turn is not in plan mode. Ask your questions in your answer and end the turn instead.';

/** The tool's spec, listed as ever, with every call answered by `reason` as the model's error. */
function refusing(tool: AgentTool, reason: string): AgentTool {
  return {
    spec: tool.spec,
    run: () => Promise.reject(new ToolInputError(reason)),
  };
}
