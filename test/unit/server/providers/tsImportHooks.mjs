// Lets `await import('./module')` inside TypeScript sources work under mocha's tsx/cjs hook, which
// handles require() only: an extensionless relative import from a .ts file resolves to the .ts
// file, which is handed to the CommonJS loader (a nullish source does that) so the require hook
// compiles it and the module is the same instance require() gives the tests.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('.') && context.parentURL?.endsWith('.ts')) {
    const url = new URL(`${specifier}.ts`, context.parentURL);
    if (existsSync(fileURLToPath(url))) return { url: url.href, format: 'commonjs', shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url.endsWith('.ts')) return { format: 'commonjs', source: null, shortCircuit: true };
  return next(url, context);
}
