// How marketplace/add reads its `source`: folders, the git URL forms, refs after `#` or `@`, and what it
// refuses (relative paths, option-like refs, credentials in a URL, sparse paths leaving the repository).
import { strict as assert } from 'node:assert';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  MarketplaceSourceError,
  parseMarketplaceSource,
  sparsePaths,
  sparsePatterns,
} from '../../../../server/plugins/marketplaceSource';

describe('marketplace sources', () => {
  it('reads folders and git URLs, with their refs', () => {
    assert.deepEqual(parseMarketplaceSource('/srv/market/', null), { type: 'local', path: '/srv/market' });
    assert.deepEqual(parseMarketplaceSource('~/market', null), {
      type: 'local',
      path: join(homedir(), 'market'),
    });
    assert.deepEqual(parseMarketplaceSource('owner/repo@main', null), {
      type: 'git',
      url: 'https://github.com/owner/repo.git',
      refName: 'main',
    });
    assert.deepEqual(parseMarketplaceSource('https://example.com/team/repo.git#v1', 'release'), {
      type: 'git',
      url: 'https://example.com/team/repo.git',
      refName: 'release',
    });
    assert.deepEqual(parseMarketplaceSource('git@example.com:team/repo.git', null), {
      type: 'git',
      url: 'git@example.com:team/repo.git',
      refName: null,
    });
    assert.deepEqual(parseMarketplaceSource('file:///srv/repo/', null), {
      type: 'git',
      url: 'file:///srv/repo',
      refName: null,
    });
  });

  it('refuses what it cannot take safely', () => {
    const refused: [string, string | null][] = [
      ['', null],
      ['./market', null],
      ['/srv/market', 'main'],
      ['a/b/c', null],
      ['ext::sh -c id', null],
      ['https://example.com/r.git', '--upload-pack=x'],
      ['https://example.com/r.git#a..b', null],
      ['https://user:secret@example.com/r.git', null],
      ['https://TOKEN@example.com/r.git', null],
    ];
    for (const [source, ref] of refused) {
      assert.throws(() => parseMarketplaceSource(source, ref), MarketplaceSourceError, `${source} ${ref}`);
    }
  });

  it('keeps sparse paths inside the repository', () => {
    assert.deepEqual(sparsePaths(['./plugins/lint/', 'plugins/lint', 'docs']), ['plugins/lint', 'docs']);
    assert.deepEqual(sparsePatterns(['plugins/lint']), ['/.agents/', '/plugins/lint/']);
    assert.deepEqual(sparsePatterns([]), []);
    for (const path of ['../x', 'a/../../x', '/abs', '-x', 'a//b', '!neg', 'a*']) {
      assert.throws(() => sparsePaths([path]), MarketplaceSourceError, path);
    }
  });
});
