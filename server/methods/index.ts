// The dispatcher's table: the handshake's handlers load with the core; every other family (families.ts,
// and the modules only it imports) is evaluated in the warm-up once the store is open, or by the first
// other request if that comes first. Answering `initialize` and exiting right after it do not pay
// for them (bench/startup.mjs: ~5 ms).
//
// require, not import(): the core runs in a vm.Script without an ESM loader (as lazySchemas.ts).
/* eslint-disable @typescript-eslint/no-require-imports */
import type { HandlerTable } from '../rpc/dispatcher';
import type { Services } from '../services';
import type * as Families from './families';
import { initializeHandlers } from './initialize';

export function methodHandlers(services: Services): HandlerTable {
  const handshake: HandlerTable = initializeHandlers(services.home, () => services.warmUp(() => void rest()));
  let families: HandlerTable | undefined;
  const rest = () => (families ??= (require('./families') as typeof Families).familyHandlers(services));
  return new Proxy(handshake, {
    get: (table, method: keyof HandlerTable) => (method in table ? table[method] : rest()[method]),
  });
}
