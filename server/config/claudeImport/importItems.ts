// externalAgentConfig/import: carries out detected items. Nothing that exists is overwritten: an
// AGENTS.md with content, a skill folder already there, an MCP server name already configured, or a
// config.toml that does not parse each become a failure for that item, and the rest goes ahead.
// In a repository, each path is resolved first and read or written at its real place, and one that
// leads out of the repository (or into the user's own setup) is a failure that says where it led.
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'smol-toml';
import type { Static } from '@sinclair/typebox';
import type { ImportTypeResult } from '../../protocol/externalAgentConfig';
import {
  BrokenConfigError,
  claudeMcpServers,
  configuredMcpServers,
  exists,
  nonEmpty,
  pendingSkills,
  scopedPath,
  toOurs,
  type Scope,
} from './claudeSetup';
import { ContainmentError } from '../../fs/containedPath';
import type { Item } from './detect';

type TypeResult = Static<typeof ImportTypeResult>;
type Success = TypeResult['successes'][number];
type Failure = TypeResult['failures'][number];
export type Outcome = { ok: true; value: Success } | { ok: false; value: Failure };

export async function importItem(item: Item, scope: Scope): Promise<Outcome[]> {
  const base = { itemType: item.itemType, cwd: scope.cwd };
  const fail = (message: string, source: string | null = null): Outcome => ({
    ok: false,
    value: { ...base, source, failureStage: 'import', message },
  });
  const done = (source: string, target: string): Outcome => ({
    ok: true,
    value: { ...base, source, target },
  });
  try {
    switch (item.itemType) {
      case 'AGENTS_MD':
        return [await agentsMd(scope, fail, done)];
      case 'SKILLS':
        return await skills(item, scope, fail, done);
      case 'MCP_SERVER_CONFIG':
        return await mcpServers(item, scope, fail, done);
      default:
        return [fail(`Threadline does not import ${item.itemType} items`)];
    }
  } catch (error) {
    return [fail(error instanceof BrokenConfigError ? error.message : `${(error as Error).message}`)];
  }
}

type Fail = (message: string, source?: string | null) => Outcome;
type Done = (source: string, target: string) => Outcome;

async function agentsMd(scope: Scope, fail: Fail, done: Done): Promise<Outcome> {
  const from = await scopedPath(scope, scope.claudeMd);
  const to = await scopedPath(scope, scope.agentsMd);
  const text = await nonEmpty(from);
  if (text === null) return fail(`${scope.claudeMd} is missing or empty`, scope.claudeMd);
  if (await nonEmpty(to)) return fail(`${scope.agentsMd} already has content`, scope.claudeMd);
  await fs.mkdir(dirname(to), { recursive: true });
  await fs.writeFile(to, text);
  return done(scope.claudeMd, scope.agentsMd);
}

async function skills(item: Item, scope: Scope, fail: Fail, done: Done): Promise<Outcome[]> {
  const pending = new Set(await pendingSkills(scope));
  const wanted = item.details?.skills?.map((s) => s.name) ?? [...pending];
  return Promise.all(
    wanted.map(async (name) => {
      const from = join(scope.skillsFrom, name);
      const to = join(scope.skillsTo, name);
      if (name.includes('/') || name.includes('\\') || name.startsWith('.'))
        return fail(`"${name}" is not a skill name`);
      let realFrom: string, realTo: string;
      try {
        [realFrom, realTo] = [await scopedPath(scope, from), await scopedPath(scope, to)];
      } catch (error) {
        if (error instanceof ContainmentError) return fail(error.message, from);
        throw error;
      }
      if (await exists(to)) return fail(`${to} already exists`, from);
      if (!pending.has(name)) return fail(`${from} is not a skill folder with a SKILL.md`, from);
      // Links are copied as links: a skill that points elsewhere keeps pointing there, not at a copy.
      await fs.cp(realFrom, realTo, {
        recursive: true,
        errorOnExist: true,
        force: false,
        verbatimSymlinks: true,
      });
      return done(from, to);
    }),
  );
}

async function mcpServers(item: Item, scope: Scope, fail: Fail, done: Done): Promise<Outcome[]> {
  const real = {
    mcpFrom: await scopedPath(scope, scope.mcpFrom),
    configTo: await scopedPath(scope, scope.configTo),
  };
  const claude = await claudeMcpServers({ ...scope, ...real });
  const configured = await configuredMcpServers(real.configTo);
  const wanted = item.details?.mcpServers?.map((s) => s.name) ?? [...claude.keys()];
  const outcomes: Outcome[] = [];
  const tables: Record<string, Record<string, unknown>> = {};
  for (const name of wanted) {
    const source = `${scope.mcpFrom}#${name}`;
    const definition = claude.get(name);
    if (!definition) outcomes.push(fail(`${scope.mcpFrom} defines no MCP server "${name}"`, source));
    else if (configured.has(name))
      outcomes.push(fail(`${scope.configTo} already defines mcp_servers.${name}`, source));
    else {
      const table = toOurs(definition);
      if (typeof table === 'string') outcomes.push(fail(table, source));
      else {
        tables[name] = table;
        outcomes.push(done(source, `${scope.configTo}#mcp_servers.${name}`));
      }
    }
  }
  if (Object.keys(tables).length) await appendToConfig(real.configTo, scope.mcpFrom, tables);
  return outcomes;
}

/** Appends new tables, so the user's comments and layout stay as they were. */
async function appendToConfig(
  configTo: string,
  mcpFrom: string,
  tables: Record<string, Record<string, unknown>>,
): Promise<void> {
  const current = await fs.readFile(configTo, 'utf8').catch(() => '');
  const block = `# Imported from ${mcpFrom} on ${new Date().toISOString().slice(0, 10)}\n${stringify({ mcp_servers: tables })}\n`;
  const separator = current === '' || current.endsWith('\n\n') ? '' : current.endsWith('\n') ? '\n' : '\n\n';
  await fs.mkdir(dirname(configTo), { recursive: true });
  await fs.appendFile(configTo, separator + block, { mode: 0o600 });
}
