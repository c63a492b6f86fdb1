// externalAgentConfig/detect and /import, for Claude Code's setup (the one source we know; any
// migrationSource is read as it, as the reference reads an unknown one as its default), and the
// history of finished imports (import/recordHistory, import/readHistories).
import { isAbsolute, resolve } from 'node:path';
import { homeScope, repoScope, type Scope } from '../config/claudeImport/claudeSetup';
import { detectIn } from '../config/claudeImport/detect';
import { ImportHistoryStore, MAX_IMPORT_BYTES } from '../config/importHistory';
import { importItem, type Outcome } from '../config/claudeImport/importItems';
import type { NotificationParamsOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';
import { uuidv7 } from '../threads/uuidv7';

type TypeResult = NotificationParamsOf<'externalAgentConfig/import/completed'>['itemTypeResults'][number];

export function externalAgentConfigHandlers(services: Services): HandlerTable {
  const scopeOf = (cwd: string | null | undefined): Scope => {
    if (!cwd) return homeScope(services.home);
    if (!isAbsolute(cwd)) throw invalidParams(`Invalid params: cwd: ${cwd} is not an absolute path`);
    return repoScope(resolve(cwd), services.home);
  };

  const history = new ImportHistoryStore(services.home);
  /** Keeps a finished import in the history; answers its id. */
  const record = async (providerId: string | null, results: TypeResult[], importId = uuidv7()) => {
    const successes = results.flatMap((r) => r.successes).map((s) => ({ ...s, title: s.title ?? null }));
    const failures = results.flatMap((r) => r.failures);
    await history.record({ importId, providerId, completedAtMs: Date.now(), successes, failures });
    return importId;
  };

  return {
    'externalAgentConfig/detect': async (params) => {
      const scopes = [
        ...(params.includeHome === false ? [] : [scopeOf(null)]),
        ...(params.cwds ?? []).map((cwd) => scopeOf(cwd)),
      ];
      const items = (await Promise.all(scopes.map(detectIn))).flat();
      return { items, connectors: [] };
    },

    'externalAgentConfig/import': (params, { peer }) => {
      const work = params.migrationItems.map((item) => ({ item, scope: scopeOf(item.cwd) }));
      const importId = uuidv7();
      setImmediate(async () => {
        const outcomes: Outcome[] = [];
        for (const { item, scope } of work) outcomes.push(...(await importItem(item, scope)));
        const itemTypeResults = groupByType(outcomes);
        const failed = outcomes.filter((o) => !o.ok).length;
        services.log.info(`import ${importId}: ${outcomes.length - failed} done, ${failed} refused`);
        await record(params.providerId ?? null, itemTypeResults, importId).catch((error: Error) =>
          services.log.warn(`import ${importId} is not kept in the import history: ${error.message}`),
        );
        peer.notify('externalAgentConfig/import/completed', { importId, itemTypeResults });
      });
      return { importId };
    },

    // An import the client completed itself: bounded, since it is kept in the home as sent.
    'externalAgentConfig/import/recordHistory': async (params) => {
      const size = Buffer.byteLength(JSON.stringify(params.itemTypeResults), 'utf8');
      if (size > MAX_IMPORT_BYTES) {
        throw invalidParams(
          `Invalid params: itemTypeResults: ${size} bytes of JSON, more than the ${MAX_IMPORT_BYTES} an import record may hold`,
        );
      }
      return { importId: await record(params.providerId, params.itemTypeResults) };
    },

    // No connector candidates: Threadline imports none.
    'externalAgentConfig/import/readHistories': async () => ({ data: await history.read(), connectors: [] }),
  };
}

function groupByType(outcomes: Outcome[]): TypeResult[] {
  const byType = new Map<TypeResult['itemType'], TypeResult>();
  for (const { ok, value } of outcomes) {
    let result = byType.get(value.itemType);
    if (!result)
      byType.set(value.itemType, (result = { itemType: value.itemType, successes: [], failures: [] }));
    if (ok) result.successes.push(value);
    else result.failures.push(value);
  }
  return [...byType.values()];
}
