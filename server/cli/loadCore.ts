// Loads dist/server-core.js through V8's code cache (codeCache.ts): compiling the bundle is most of
// what a Node server pays at startup, and a cached compile costs a fifth of it. Any problem with the
// cache falls back to a plain compile.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import type * as CoreModule from '../core';
import { buildStamp, canCache, CodeCache } from './codeCache';

type Core = typeof CoreModule;

export interface LoadedCore {
  core: Core;
  /**
   * Writes the cache when there was none for this build or V8 turned it down. Called once the
   * handshake is answered, so the cache holds what startup compiled, and before the V8 flags change
   * from what they were when the core loaded: V8 accepts a cache only under the flags it was made
   * with (startupFlags.ts).
   */
  saveCache(): void;
}

export function loadCore(home: string): LoadedCore {
  const file = join(__dirname, 'server-core.js');
  const source = readFileSync(file, 'utf8');
  const stamp = buildStamp(source);
  const cache = stamp === undefined || !canCache() ? undefined : new CodeCache(__dirname, home, stamp);
  const cached = cache?.read();
  const script = new Script(wrap(source), { filename: file, cachedData: cached?.data });
  const exports = {};
  const module = { exports };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(exports, exports, require, module, file, __dirname);
  let stale = cache !== undefined && (!cached?.data || script.cachedDataRejected === true);
  return {
    core: module.exports as Core,
    saveCache: () => {
      if (!stale) return;
      stale = false;
      cache!.write(script.createCachedData(), cached?.folder);
    },
  };
}

/** Module.wrap's function around the source (requiring node:module loads Node's ES module loader). */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}
