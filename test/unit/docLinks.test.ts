// The README (the marketplace listing) and the documents beside it: every relative link and image points
// at a file that exists, every #anchor at a heading of its file (as GitHub names headings), and none
// names a path of the machine they were written on.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../support/paths';

const documents = [
  'README.md',
  'ARCHITECTURE.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
  const headings = [...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!.trim()));
  return new Set(headings);
}

function targets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1]!);
  const html = [...text.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
  return [...inline, ...html].filter((target) => !/^(https?:|mailto:|command:)/.test(target));
}

describe('the README and the docs', () => {
  for (const document of documents) {
    const file = join(repoRoot, document);
    const markdown = readFileSync(file, 'utf8');

    it(`${document}: relative links and images resolve, anchors name headings`, () => {
      for (const target of targets(markdown)) {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        assert.ok(existsSync(resolved), `${document} links to ${target}, which does not exist`);
        assert.ok(
          relative(repoRoot, resolved) === '' || !relative(repoRoot, resolved).startsWith('..'),
          `${document} links out of the repository: ${target}`,
        );
        if (anchor !== undefined && resolved.endsWith('.md'))
          assert.ok(
            anchors(resolved).has(anchor),
            `${document} links to #${anchor}, not a heading of ${path || document}`,
          );
      }
    });

    it(`${document}: names no path of the machine it was written on`, () => {
      assert.doesNotMatch(markdown, /\/work\/|file:\/\/\/|\/Users\/[A-Za-z]|[A-Z]:\\Users\\/);
    });
  }

  it('shows images that exist in README, each screenshot in both themes', () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]!);
    assert.ok(images.length >= 4, `README shows ${images.length} pictures`);
    for (const image of images) {
      assert.match(image, /^media\/screenshots\/[a-z]+-(dark|light)\.png$/);
      for (const theme of ['dark', 'light'])
        assert.ok(existsSync(join(repoRoot, image.replace(/(dark|light)\.png$/, `${theme}.png`))), image);
    }
  });
});
