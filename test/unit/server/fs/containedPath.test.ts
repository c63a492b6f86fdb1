// The containment check on real files: links (also dangling, also chained), `..` taken after a link,
// and the user's own folders inside a repository.
import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { containedPath, ContainmentError, repositoryBoundary } from '../../../../server/fs/containedPath';
import { tempDir } from '../../../support/tempDirs';

describe('containedPath', () => {
  function layOut() {
    const userHome = tempDir('threadline-user-');
    const repo = tempDir('threadline-repo-');
    const outside = tempDir('threadline-outside-');
    mkdirSync(join(repo, 'docs'));
    writeFileSync(join(repo, 'docs', 'a.md'), 'a');
    const boundary = repositoryBoundary(repo, join(userHome, '.threadline'), {}, userHome);
    return { userHome, repo, outside, boundary };
  }
  const refused = (path: Promise<string>, message: RegExp) =>
    assert.rejects(path, (error: Error) => error instanceof ContainmentError && message.test(error.message));

  it('gives the real path of what stays inside, links followed', async () => {
    const { repo, boundary } = layOut();
    symlinkSync('docs/a.md', join(repo, 'AGENTS.md'));
    symlinkSync('docs', join(repo, 'notes'));
    assert.equal(await containedPath(join(repo, 'AGENTS.md'), boundary), join(repo, 'docs', 'a.md'));
    assert.equal(
      await containedPath(join(repo, 'notes', 'new', 'x.md'), boundary),
      join(repo, 'docs', 'new', 'x.md'),
    );
    assert.equal(await containedPath(join(repo, 'missing.md'), boundary), join(repo, 'missing.md'));
  });

  it('refuses a link out, a dangling one, a chain of them, and `..` after a link', async () => {
    const { repo, outside, boundary } = layOut();
    symlinkSync(join(outside, 'not-yet'), join(repo, 'dangling'));
    symlinkSync('dangling', join(repo, 'chained'));
    symlinkSync(join(outside), join(repo, 'out'));
    mkdirSync(join(outside, 'sub'));
    symlinkSync(join(outside, 'sub'), join(repo, 'docs', 'deep'));
    await refused(
      containedPath(join(repo, 'dangling'), boundary),
      /leads to .*not-yet, outside the repository/,
    );
    await refused(containedPath(join(repo, 'chained'), boundary), /outside the repository/);
    await refused(containedPath(join(repo, 'out', 'x'), boundary), /outside the repository/);
    // Lexically docs/deep/../a.md is docs/a.md (join would say so); the kernel goes through the link.
    await refused(containedPath(`${repo}/docs/deep/../a.md`, boundary), /leads to .*outside-.*a\.md/);
  });

  it('refuses the user’s own folders inside the repository, and a repository that holds the home folder', async () => {
    const { userHome, repo } = layOut();
    const inside = repositoryBoundary(repo, join(repo, 'th-home'), {}, userHome);
    await refused(
      containedPath(join(repo, 'th-home', 'config.toml'), inside),
      /inside your own configuration/,
    );
    const codex = repositoryBoundary(
      repo,
      join(userHome, '.threadline'),
      { CODEX_HOME: join(repo, 'cx') },
      userHome,
    );
    await refused(containedPath(join(repo, 'cx', 'config.toml'), codex), /inside your own configuration/);
    const home = repositoryBoundary(userHome, join(userHome, '.threadline'), {}, userHome);
    await refused(containedPath(join(userHome, 'AGENTS.md'), home), /is \(or holds\) your home folder/);
  });
});
