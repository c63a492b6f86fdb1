// The shells' grammars (tree-sitter-bash and tree-sitter-powershell, as VS Code builds them to
// WebAssembly) and the runtime that runs them. This module is a bundle of its own
// (dist/server-bash.js), loaded when the first command line is read, so a server that never runs a
// command never pays for it (about 45 MiB once loaded).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Language, Parser, type Node } from '@vscode/tree-sitter-wasm';

export type { Node };

export type ParsedGrammar = 'bash' | 'powershell';

const RUNTIME = 'tree-sitter.wasm';

// Shipped beside the bundle (esbuild.mjs copies the .wasm files to dist/); from the sources, the package.
function wasmFolder(): string {
  if (existsSync(join(__dirname, RUNTIME))) return __dirname;
  return dirname(require.resolve(`@vscode/tree-sitter-wasm/wasm/${RUNTIME}`));
}

/** A parser of the grammar; `parse` hands the tree's root to `read` and frees the tree after. */
export async function loadParser(
  grammar: ParsedGrammar,
): Promise<<T>(text: string, read: (root: Node) => T) => T> {
  const folder = wasmFolder();
  await Parser.init({ locateFile: (file: string) => join(folder, file) });
  const parser = new Parser();
  parser.setLanguage(await Language.load(join(folder, `tree-sitter-${grammar}.wasm`)));
  return (text, read) => {
    const tree = parser.parse(text);
    if (!tree) throw new Error(`the ${grammar} parser gave no tree`);
    try {
      return read(tree.rootNode);
    } finally {
      tree.delete();
    }
  };
}
