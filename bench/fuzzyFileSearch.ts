// fuzzyFileSearch on a 100,000-file tree through the built server over stdio: how long the index
// takes to build (a session's first query until fuzzyFileSearch/sessionCompleted), then how long
// queries take once it is built (request to response). Target: ≤ 100 ms per query once built.
// Usage: npx tsx bench/fuzzyFileSearch.ts [files, default 100000]   (build first: npm run build)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ServerProcess } from '../test/support/serverProcess';
import { tempDir } from '../test/support/tempDirs';

const files = Number(process.argv[2] ?? 100_000);
const words = ['alpha', 'button', 'cache', 'delta', 'editor', 'format', 'graph', 'handler', 'index', 'json'];
const kinds = ['service', 'view', 'model', 'util', 'test', 'store', 'parser', 'client', 'server', 'widget'];

/** 10 × 20 × 25 folders of 20 files each (at the default count), names made of common words. */
function makeTree(root: string): void {
  const perFolder = 20;
  for (let n = 0; n < files; n += perFolder) {
    const folder = n / perFolder;
    const dir = join(
      root,
      `pkg-${words[folder % 10]}`,
      `${kinds[Math.floor(folder / 10) % 10]}-${folder % 20}`,
      `mod${folder}`,
    );
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < perFolder && n + i < files; i++) {
      writeFileSync(join(dir, `${words[(folder + i) % 10]}${kinds[i % 10]}${n + i}.ts`), '');
    }
  }
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const root = tempDir('threadline-bench-fuzzy-');
  let t = performance.now();
  makeTree(root);
  console.log(`tree: ${files} files written in ${(performance.now() - t).toFixed(0)} ms`);

  const server = await ServerProcess.started({ experimentalApi: true });
  try {
    t = performance.now();
    await server.call('fuzzyFileSearch/sessionStart', { sessionId: 'bench', roots: [root] });
    await server.call('fuzzyFileSearch/sessionUpdate', { sessionId: 'bench', query: 'btnsrv' });
    await server.next((m) => m.method === 'fuzzyFileSearch/sessionCompleted', 300_000);
    console.log(`index build (session start to sessionCompleted): ${(performance.now() - t).toFixed(0)} ms`);

    const queries = [
      'a',
      'btn',
      'editorview',
      'pkgjsonparser',
      'mod4999',
      'deltastore12345',
      'zzzz',
      'gr/hnd',
    ];
    for (const query of queries) {
      const times: number[] = [];
      let count = 0;
      for (let run = 0; run < 5; run++) {
        t = performance.now();
        const result = await server.call<{ files: unknown[] }>('fuzzyFileSearch', { query, roots: [root] });
        times.push(performance.now() - t);
        count = result.files.length;
      }
      console.log(
        `query ${JSON.stringify(query).padEnd(18)} first ${times[0]!.toFixed(1)} ms, median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms, ${count} results`,
      );
    }
  } finally {
    await server.stop();
  }
}

void main();
