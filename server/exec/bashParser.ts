// Bash's grammar (tree-sitter-bash, as VS Code builds it to WebAssembly) and the runtime that runs it.
// This module is a bundle of its own (dist/server-bash.js), loaded when the first command line is
// read, so a server that never runs a command never pays for it (about 45 MiB once loaded).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Language, Parser, type Node } from '@vscode/tree-sitter-wasm';

export type { Node };

const GRAMMAR = 'tree-sitter-bash.wasm';

// Shipped beside the bundle (esbuild.mjs copies both .wasm files to dist/); from the sources, the package.
function wasmFolder(): string {
  if (existsSync(join(__dirname, GRAMMAR))) return __dirname;
  return dirname(require.resolve(`@vscode/tree-sitter-wasm/wasm/${GRAMMAR}`));
}

/** A parser of bash; `parse` hands the tree's root to `read` and frees the tree after. */
export async function loadBashParser(): Promise<<T>(text: string, read: (root: Node) => T) => T> {
  const folder = wasmFolder();
  await Parser.init({ locateFile: (file: string) => join(folder, file) });
  const parser = new Parser();
  parser.setLanguage(await Language.load(join(folder, GRAMMAR)));
  return (text, read) => {
    const tree = parser.parse(text);
    if (!tree) throw new Error('the bash parser gave no tree');
    try {
      return read(tree.rootNode);
    } finally {
      tree.delete();
    }
  };
}
