// externalAgentConfig/detect: what of Claude Code's setup still has to come over, per scope. Only
// what has work left is listed, so a second detect after an import finds nothing; nor is what a
// repository's links lead out of it, which import would refuse.
import type { Static } from '@sinclair/typebox';
import type { MigrationItem } from '../../protocol/externalAgentConfig';
import { nonEmpty, pendingMcpServers, pendingSkills, staysInScope, type Scope } from './claudeSetup';

export type Item = Static<typeof MigrationItem>;

export async function detectIn(scope: Scope): Promise<Item[]> {
  const where = scope.cwd ?? '~';
  const items: Item[] = [];
  if (
    (await nonEmpty(scope.claudeMd)) &&
    !(await nonEmpty(scope.agentsMd)) &&
    (await staysInScope(scope, scope.claudeMd, scope.agentsMd))
  ) {
    items.push({
      itemType: 'AGENTS_MD',
      description: `Copy ${scope.claudeMd} to ${scope.agentsMd}`,
      cwd: scope.cwd,
    });
  }
  const skills = await pendingSkills(scope);
  if (skills.length) {
    items.push({
      itemType: 'SKILLS',
      description: `Copy ${skills.length} skill${skills.length === 1 ? '' : 's'} from ${scope.skillsFrom} to ${scope.skillsTo}`,
      cwd: scope.cwd,
      details: { skills: skills.map((name) => ({ name })) },
    });
  }
  const servers = await pendingMcpServers(scope);
  if (servers.length) {
    items.push({
      itemType: 'MCP_SERVER_CONFIG',
      description: `Add ${servers.length} MCP server${servers.length === 1 ? '' : 's'} from ${scope.mcpFrom} to ${scope.configTo} (${where})`,
      cwd: scope.cwd,
      details: { mcpServers: servers.map((name) => ({ name })) },
    });
  }
  return items;
}
