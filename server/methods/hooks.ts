// hooks/list: the hooks each working directory sees (the user's, then its project's), with what
// cannot be used in them and whether each may run: a user's own hooks are trusted as their config
// is, a project's only once the user trusted that exact definition (hooks/hookTrust.ts). Listing
// never asks and never runs anything.
import { isAbsolute, resolve } from 'node:path';
import { discoverHooks } from '../hooks/hookSources';
import type { HookDefinition } from '../hooks/hookConfig';
import { RUN_EVENTS } from '../hooks/turnHooks';
import type { HookMetadata, HooksListEntry } from '../protocol/hooks';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';

export function hookHandlers(services: Services): HandlerTable {
  const entry = async (cwd: string): Promise<HooksListEntry> => {
    const inventory = await discoverHooks(services.home, cwd);
    const hooks = await Promise.all(
      inventory.hooks.map(async (hook): Promise<HookMetadata> =>
        metadata(hook, inventory.disabled, services),
      ),
    );
    const idle = inventory.hooks
      .filter((hook) => !RUN_EVENTS.has(hook.event))
      .map((hook) => `${hook.key}: Threadline does not run ${hook.eventKey} hooks, so this one never runs`);
    return { cwd, hooks, warnings: [...inventory.warnings, ...idle], errors: inventory.errors };
  };

  return {
    'hooks/list': async (params: ParamsOf<'hooks/list'>): Promise<ResultOf<'hooks/list'>> => {
      const cwds = params.cwds ?? [];
      if (params.threadId) {
        if (cwds.length > 0) throw invalidParams('Invalid params: give either threadId or cwds, not both');
        const thread = services.loaded.get(params.threadId);
        if (!thread?.settings)
          throw invalidParams(
            `Invalid params: thread ${params.threadId} is not loaded: resume it to list its hooks`,
          );
        return { data: [await entry(thread.settings.cwd)] };
      }
      const relative = cwds.find((cwd) => !isAbsolute(cwd));
      if (relative !== undefined)
        throw invalidParams(`Invalid params: cwds: "${relative}" is not an absolute path`);
      const folders = cwds.length > 0 ? cwds.map((cwd) => resolve(cwd)) : [process.cwd()];
      return { data: await Promise.all(folders.map(entry)) };
    },
  };
}

async function metadata(
  hook: HookDefinition,
  disabled: Set<string>,
  services: Services,
): Promise<HookMetadata> {
  const trusted = hook.source === 'user' || (await services.hookTrust.trusted(hook));
  return {
    handlerType: 'command',
    command: hook.command,
    async: hook.async,
    key: hook.key,
    eventName: hook.event,
    matcher: hook.matcher,
    statusMessage: hook.statusMessage,
    timeoutSec: hook.timeoutSec,
    source: hook.source,
    sourcePath: hook.sourcePath,
    displayOrder: hook.displayOrder,
    enabled: !disabled.has(hook.key),
    isManaged: false,
    currentHash: `sha256:${hook.hash}`,
    trustStatus: trusted ? 'trusted' : 'untrusted',
  };
}
