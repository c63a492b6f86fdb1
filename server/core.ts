// The server proper, bundled apart from the launcher (dist/server-core.js) so that the launcher
// can load it with a V8 code cache.
import type * as Generate from './protocol/generate';

export { runAppServer } from './app';

/** The schema writers of `generate-json-schema` and `generate-ts`, which build the whole protocol. */
export function schemaWriters(): typeof Generate {
  // require, not import(): the core runs in a vm.Script without an ESM loader; esbuild makes the
  // protocol's schemas load here rather than with the core (validate.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./protocol/generate') as typeof Generate;
}
