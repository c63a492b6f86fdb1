// Loads dist/server-core.js through V8's code cache, kept in the home directory: compiling the
// bundle is most of what a Node server pays at startup, and a cached compile costs a tenth of it.
// Any problem with the cache falls back to a plain compile; the cache is rewritten after startup.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import type * as CoreModule from '../core';

type Core = typeof CoreModule;

export function loadCore(home: string): Core {
  const file = join(__dirname, 'server-core.js');
  const source = readFileSync(file, 'utf8');
  const cacheFile = join(home, 'cache', `server-core-${__THREADLINE_VERSION__}-${source.length}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // first start with this home or this version
  }
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const exports = {};
  const module = { exports };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(exports, exports, require, module, file, __dirname);
  if (!cachedData || script.cachedDataRejected) {
    // After the first request is served, the cache also holds the functions that startup compiled.
    setTimeout(() => writeCache(cacheFile, script), 1000).unref();
  }
  return module.exports as Core;
}

function writeCache(cacheFile: string, script: Script): void {
  try {
    mkdirSync(join(cacheFile, '..'), { recursive: true, mode: 0o700 });
    const temp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
    renameSync(temp, cacheFile);
  } catch {
    // A read-only home only costs the next start its compile time.
  }
}
