// The protocol's schemas that answering `initialize` does not need, built when first asked for:
// building them all with the core took ~3.5 ms of every start (bench/startup.mjs). esbuild
// evaluates a module that the core only requires (here) when it is first required, so a server
// module that needs one of these schemas at run time gets it through here; a plain import of it, or
// of a module that imports it, would build it with the core again.
//
// require, not import(): the core runs in a vm.Script without an ESM loader.
/* eslint-disable @typescript-eslint/no-require-imports */
import type * as ConfigMethods from './configMethods';
import type * as Items from './items';
import type * as Methods from './methods';
import type * as ServerRequests from './serverRequests';

const once = <T>(load: () => T) => {
  let loaded: T | undefined;
  return () => (loaded ??= load());
};

/** The method table (methods.ts), with every request's params, result and notification. */
export const methodSchemas = once(() => require('./methods') as typeof Methods);

/** What the server asks of its clients (serverRequests.ts). */
export const serverRequestSchemas = once(() => require('./serverRequests') as typeof ServerRequests);

/** The config as config/read describes it (configMethods.ts). */
export const configSchemas = once(() => require('./configMethods') as typeof ConfigMethods);

/** The thread items (items.ts), for checking items that come from outside (an imported rollout). */
export const itemSchemas = once(() => require('./items') as typeof Items);
