// The notices the .vsix ships: every third-party package esbuild put into a bundle (its metafiles, written
// by the build the unit suites run after) is named in THIRD-PARTY-NOTICES.md with its license text, under
// a license on the allowlist, and the file is the one the bundles call for today.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { ALLOWED_LICENSES, bundledPackages, NOTICES_FILE, renderNotices } from '../support/thirdPartyNotices';

describe('third-party notices', () => {
  const packages = bundledPackages();
  const notices = readFileSync(NOTICES_FILE, 'utf8');

  it('finds the packages the bundles are known to hold, from the metafiles', () => {
    const names = packages.map((p) => p.name);
    for (const name of ['react', 'openai', '@vscode/codicons', 'flexsearch', 'tree-sitter-bash'])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
  });

  it('names every bundled package, with a license on the allowlist and its license text', () => {
    for (const p of packages) {
      assert.ok(
        (ALLOWED_LICENSES as readonly string[]).includes(p.license),
        `${p.name} is ${p.license}, outside the allowlist`,
      );
      assert.ok(notices.includes(`\n## ${p.name} ${p.version}\n`), `${p.name} ${p.version} has no notice`);
      for (const { text } of p.texts) assert.ok(notices.includes(text), `${p.name}: license text missing`);
    }
    const apache = packages.filter((p) => p.license === 'Apache-2.0');
    assert.ok(
      apache.length > 0 && apache.every((p) => p.texts.length > 0),
      'Apache-2.0 packages ship their license',
    );
  });

  it('is the file the bundles call for (npx tsx bench/thirdPartyNotices.ts --write)', async () => {
    assert.equal(notices, await renderNotices(packages), 'THIRD-PARTY-NOTICES.md is out of date');
  });
});
