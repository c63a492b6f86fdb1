// The dispatcher's table: the handshake's handlers load with the core; every other family (families.ts,
// and the modules only it imports) is evaluated when the first other request arrives. A window that
// only says hello, or a probe that exits after `initialize`, never pays for them (bench/startup.mjs).
//
// require, not import(): the core runs in a vm.Script without an ESM loader (as lazySchemas.ts).
/* eslint-disable @typescript-eslint/no-require-imports */
import type { HandlerTable } from '../rpc/dispatcher';
import type { Services } from '../services';
import type * as Families from './families';
import { initializeHandlers } from './initialize';

export function methodHandlers(services: Services): HandlerTable {
  const handshake: HandlerTable = initializeHandlers(services.home, () => services.warmUp());
  let families: HandlerTable | undefined;
  const rest = () => (families ??= (require('./families') as typeof Families).familyHandlers(services));
  return new Proxy(handshake, {
    get: (table, method: keyof HandlerTable) => (method in table ? table[method] : rest()[method]),
  });
}
