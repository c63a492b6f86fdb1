// The server proper, bundled apart from the launcher (dist/server-core.js) so that the launcher
// can load it with a V8 code cache.
export { runAppServer } from './app';
export { writeJsonSchema, writeTypeScript } from './protocol/generate';
