// The third-party code and fonts the .vsix ships, read from esbuild's metafiles (dist/*.meta.json, written
// by every build) plus the WebAssembly esbuild.mjs copies beside the bundles, and THIRD-PARTY-NOTICES.md
// rendered from them with each package's own license text. The notices test holds the committed file to
// this; `npx tsx bench/thirdPartyNotices.ts --write` rewrites it after a dependency changes.
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import * as prettier from 'prettier';
import { repoRoot } from './paths';

/** Licenses whose terms a notice satisfies; anything else needs a decision before it ships. */
export const ALLOWED_LICENSES = [
  'MIT',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  'CC-BY-4.0',
  'Unlicense',
  '0BSD',
] as const;

export interface BundledPackage {
  name: string;
  version: string;
  license: string;
  repository: string | undefined;
  /** The shipped files (under dist/) that hold its code or assets. */
  files: string[];
  /** Its license and notice files, each as written. */
  texts: { file: string; text: string }[];
}

export const NOTICES_FILE = join(repoRoot, 'THIRD-PARTY-NOTICES.md');
const dist = join(repoRoot, 'dist');

/** The package folder an esbuild input path lies in ("../x/node_modules/a/node_modules/@s/b/c.js"). */
function packageDir(input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const parts = input.slice(at + 'node_modules/'.length).split('/');
  const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  // Real paths: node_modules may be a link (a worktree's), and one package must not count twice.
  return realpathSync(resolve(repoRoot, input.slice(0, at), 'node_modules', name));
}

/** A license file as the notices hold it: no byte-order mark, LF line ends, no trailing blanks. */
function plainText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();
}

const licenseFile = /^(licen[cs]e|copying|notice)([-.].*)?$/i;

function readPackage(dir: string, files: string[]): BundledPackage {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    license?: string;
    repository?: string | { url?: string };
  };
  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  return {
    name: manifest.name,
    version: manifest.version,
    license: manifest.license ?? 'UNKNOWN',
    repository: repository?.replace(/^git\+/, '').replace(/\.git$/, ''),
    files,
    texts: readdirSync(dir)
      .filter((file) => licenseFile.test(file))
      .sort()
      .map((file) => ({ file, text: plainText(readFileSync(join(dir, file), 'utf8')) })),
  };
}

const mit = (copyright: string) =>
  [
    'The MIT License (MIT)',
    '',
    copyright,
    '',
    'Permission is hereby granted, free of charge, to any person obtaining a copy',
    'of this software and associated documentation files (the "Software"), to deal',
    'in the Software without restriction, including without limitation the rights',
    'to use, copy, modify, merge, publish, distribute, sublicense, and/or sell',
    'copies of the Software, and to permit persons to whom the Software is',
    'furnished to do so, subject to the following conditions:',
    '',
    'The above copyright notice and this permission notice shall be included in all',
    'copies or substantial portions of the Software.',
    '',
    'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR',
    'IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,',
    'FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE',
    'AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER',
    'LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,',
    'OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE',
    'SOFTWARE.',
  ].join('\n');

/**
 * The WebAssembly esbuild.mjs copies from @vscode/tree-sitter-wasm: its package covers the build, and
 * these are the projects compiled into it, which carry no license file of their own in node_modules.
 */
const compiledIntoWasm: BundledPackage[] = [
  {
    name: 'tree-sitter',
    version: '0.25.1',
    license: 'MIT',
    repository: 'https://github.com/tree-sitter/tree-sitter',
    files: ['tree-sitter.wasm'],
    texts: [{ file: 'LICENSE', text: mit('Copyright (c) 2018-2023 Max Brunsfeld') }],
  },
  {
    name: 'tree-sitter-bash',
    version: 'grammar',
    license: 'MIT',
    repository: 'https://github.com/tree-sitter/tree-sitter-bash',
    files: ['tree-sitter-bash.wasm'],
    texts: [{ file: 'LICENSE', text: mit('Copyright (c) 2017 Max Brunsfeld') }],
  },
  {
    name: 'tree-sitter-powershell',
    version: 'grammar',
    license: 'MIT',
    repository: 'https://github.com/airbus-cert/tree-sitter-powershell',
    files: ['tree-sitter-powershell.wasm'],
    texts: [{ file: 'LICENSE', text: mit('Copyright (c) Airbus CERT') }],
  },
];

/** Every third-party package in the built bundles, by name, with the files that hold it. */
export function bundledPackages(): BundledPackage[] {
  const metafiles = readdirSync(dist).filter((file) => file.endsWith('.meta.json'));
  if (metafiles.length === 0) throw new Error('dist/ has no metafiles: run `npm run build` first');
  const byDir = new Map<string, Set<string>>();
  for (const file of metafiles) {
    const meta = JSON.parse(readFileSync(join(dist, file), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    for (const [output, { inputs }] of Object.entries(meta.outputs)) {
      if (output.endsWith('.map')) continue;
      for (const input of Object.keys(inputs)) {
        const dir = packageDir(input);
        if (dir) byDir.set(dir, (byDir.get(dir) ?? new Set()).add(basename(output)));
      }
    }
  }
  const wasmPackage = realpathSync(resolve(repoRoot, 'node_modules', '@vscode', 'tree-sitter-wasm'));
  if (existsSync(join(dist, 'tree-sitter.wasm')))
    for (const wasm of compiledIntoWasm.flatMap((p) => p.files))
      byDir.set(wasmPackage, (byDir.get(wasmPackage) ?? new Set()).add(wasm));
  const packages = [...byDir].map(([dir, files]) => readPackage(dir, [...files].sort()));
  return [...packages, ...compiledIntoWasm].sort((a, b) => a.name.localeCompare(b.name));
}

/** THIRD-PARTY-NOTICES.md as it should read, formatted by prettier as `npm run lint` checks. */
export async function renderNotices(packages: BundledPackage[] = bundledPackages()): Promise<string> {
  const fence = (text: string) => {
    const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    return [`${ticks}text`, text, ticks].join('\n');
  };
  const sections = packages.map((p) =>
    [
      `## ${p.name} ${p.version}`,
      '',
      `License: ${p.license}. ${p.repository ? `Source: <${p.repository}>. ` : ''}Shipped in ${p.files
        .map((f) => `\`dist/${f}\``)
        .join(', ')}.`,
      '',
      ...(p.texts.length === 0
        ? ['The package ships no license file; its package.json names the license above.', '']
        : p.texts.flatMap((t) => [`${t.file}:`, '', fence(t.text), ''])),
    ].join('\n'),
  );
  const text = [
    '# Third-party notices',
    '',
    'Threadline bundles the following third-party software into its `.vsix`. Each is listed with its',
    'license and the license and notice files it ships, as their terms ask. Generated from the bundles by',
    '`npx tsx bench/thirdPartyNotices.ts --write`; nothing in them was modified other than by bundling and',
    'minification, and the codicons font (CC-BY-4.0) is shipped as published.',
    '',
    ...sections,
  ].join('\n');
  const options = await prettier.resolveConfig(NOTICES_FILE);
  return prettier.format(text, { ...options, parser: 'markdown' });
}

export async function writeNotices(): Promise<void> {
  writeFileSync(NOTICES_FILE, await renderNotices());
}
