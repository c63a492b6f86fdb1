// What the built core evaluates when it loads, read from esbuild's record of the bundle
// (dist/server-core.meta.json): a module reached from the entry point through import statements
// runs at load; one reached only through require() or import() runs when first required.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/paths';

interface Metafile {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}

const meta = JSON.parse(readFileSync(join(repoRoot, 'dist', 'server-core.meta.json'), 'utf8')) as Metafile;

/** The modules `from` loads with it: itself and what its import statements reach. */
function loadedWith(from: string, into = new Set<string>()): Set<string> {
  if (into.has(from)) return into;
  into.add(from);
  for (const imported of meta.inputs[from]?.imports ?? []) {
    if (imported.kind === 'import-statement' && !imported.external) loadedWith(imported.path, into);
  }
  return into;
}

describe('the core at load', () => {
  it('builds, of the method table, only the handshake’s schemas and the enums the config reads', () => {
    const atLoad = loadedWith('server/core.ts');
    assert.ok(atLoad.has('server/app.ts'), 'the record names the server’s modules');
    const table = loadedWith('server/protocol/methods.ts');
    const built = [...table].filter((file) => file.startsWith('server/') && atLoad.has(file)).sort();
    assert.deepEqual(built, [
      'server/protocol/enums.ts',
      'server/protocol/initialize.ts',
      'server/protocol/schema.ts',
    ]);
  });

  it('evaluates, of the method handlers, only the handshake’s (the others load with the first other request)', () => {
    const atLoad = loadedWith('server/core.ts');
    const families = meta.inputs['server/methods/families.ts']!.imports.map((i) => i.path);
    assert.ok(families.includes('server/methods/worktree.ts'), 'the record names the families');
    assert.deepEqual(
      ['server/methods/families.ts', ...families].filter((file) => atLoad.has(file)),
      [],
    );
    assert.ok(atLoad.has('server/methods/initialize.ts'));
  });
});
