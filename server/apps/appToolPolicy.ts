// What the apps that name an MCP server allow of its tools: whether the model is offered a tool at all
// (the app and `[apps._default]` enabled, the tool not switched off, destructive and open-world tools
// only where allowed), and how a call is approved:
//   auto     the usual rule: a destructive tool asks first, and under `untrusted` so does any tool
//            that does not say it only reads;
//   prompt   every call asks first;
//   writes   every call of a tool that does not say it only reads asks first;
//   approve  the user approved the tool in config: its calls run without asking.
// A server no app names keeps the usual rule for all its tools. When several apps name the same
// server, a tool is offered if one of them offers it, and the most cautious approval wins.
import type { AppDefaults, AppDefinition, AppToolApproval } from './appConfig';

export interface ToolHints {
  readOnly: boolean;
  destructive: boolean;
  openWorld: boolean;
}

export interface ToolPolicy {
  offered: boolean;
  approval: AppToolApproval;
}

export type ToolPolicyOf = (server: string, tool: string, hints: ToolHints) => ToolPolicy;

const CAUTION: readonly AppToolApproval[] = ['approve', 'auto', 'writes', 'prompt'];
const USUAL: ToolPolicy = { offered: true, approval: 'auto' };

export function appToolPolicy(apps: readonly AppDefinition[], defaults: AppDefaults): ToolPolicyOf {
  return (server, tool, hints) => {
    const naming = apps.filter((app) => app.mcpServer === server);
    if (!naming.length) return USUAL;
    const policies = naming.map((app) => policyOf(app, defaults, tool, hints));
    const offering = policies.filter((policy) => policy.offered);
    if (!offering.length) return { offered: false, approval: 'prompt' };
    const approval = offering
      .map((policy) => policy.approval)
      .reduce((a, b) => (CAUTION.indexOf(a) >= CAUTION.indexOf(b) ? a : b));
    return { offered: true, approval };
  };
}

function policyOf(app: AppDefinition, defaults: AppDefaults, tool: string, hints: ToolHints): ToolPolicy {
  const own = Object.hasOwn(app.tools, tool) ? app.tools[tool] : undefined;
  const offered =
    defaults.enabled &&
    app.enabled &&
    (own?.enabled ?? app.defaultToolsEnabled ?? true) &&
    (!hints.destructive || (app.destructiveEnabled ?? defaults.destructiveEnabled)) &&
    (!hints.openWorld || (app.openWorldEnabled ?? defaults.openWorldEnabled));
  const approval = own?.approvalMode ?? app.defaultToolsApprovalMode ?? defaults.toolsApprovalMode ?? 'auto';
  return { offered, approval };
}
