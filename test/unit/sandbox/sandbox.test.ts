import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bubblewrapArgs } from '../../../server/sandbox/bubblewrap';
import { wrapCommand } from '../../../server/sandbox/sandbox';
import { seatbeltProfile } from '../../../server/sandbox/seatbelt';
import { confinementOf } from '../../../server/sandbox/writableRoots';
import { tempDir } from '../../helpers/serverProcess';

describe('sandbox policies', () => {
  const repo = tempDir('threadline-sbx-');
  mkdirSync(join(repo, '.git'));
  const extra = tempDir('threadline-sbx-extra-');
  const workspace = {
    type: 'workspaceWrite' as const,
    writableRoots: [extra],
    networkAccess: false,
    excludeTmpdirEnvVar: true,
    excludeSlashTmp: false,
  };

  it('workspaceWrite: the cwd and the listed roots, each .git kept read-only, a private /tmp', () => {
    const confinement = confinementOf(workspace, repo, {});
    assert.deepEqual(confinement, {
      writableRoots: [
        { root: repo, readOnly: [join(repo, '.git')] },
        { root: extra, readOnly: [] },
      ],
      network: false,
      privateTmp: true,
    });
    assert.deepEqual(bubblewrapArgs(confinement, ['ls']), [
      '--die-with-parent',
      '--unshare-pid',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--bind',
      repo,
      repo,
      '--ro-bind',
      join(repo, '.git'),
      join(repo, '.git'),
      '--bind',
      extra,
      extra,
      '--unshare-net',
      '--',
      'ls',
    ]);
  });

  it('network, TMPDIR and /tmp follow the policy flags', () => {
    const open = confinementOf(
      { ...workspace, networkAccess: true, excludeTmpdirEnvVar: false, excludeSlashTmp: true },
      repo,
      { TMPDIR: extra },
    );
    assert.equal(open.network, true);
    assert.equal(open.privateTmp, false);
    assert.ok(!bubblewrapArgs(open, ['x']).includes('--unshare-net'));
    assert.deepEqual(confinementOf({ type: 'readOnly', networkAccess: false }, repo, {}), {
      writableRoots: [],
      network: false,
      privateTmp: false,
    });
    assert.equal(confinementOf({ type: 'dangerFullAccess' }, repo, {}).writableRoots, null);
  });

  it('wraps only what needs confining, and says when it cannot', () => {
    const bwrap = { kind: 'bubblewrap' as const, program: '/usr/bin/bwrap' };
    assert.deepEqual(wrapCommand(['ls'], { type: 'dangerFullAccess' }, repo, {}, bwrap), {
      argv: ['ls'],
      sandbox: null,
      unavailable: null,
    });
    const wrapped = wrapCommand(['ls'], workspace, repo, {}, bwrap);
    assert.equal(wrapped.argv[0], '/usr/bin/bwrap');
    assert.equal(wrapped.sandbox, 'bubblewrap');
    assert.deepEqual(wrapCommand(['ls'], workspace, repo, {}, { kind: 'none', reason: 'no bwrap' }), {
      argv: ['ls'],
      sandbox: null,
      unavailable: 'no bwrap',
    });
  });

  it('writes a Seatbelt profile for macOS', () => {
    const profile = seatbeltProfile({
      writableRoots: [{ root: '/Users/me/my "repo"', readOnly: ['/Users/me/my "repo"/.git'] }],
      network: false,
      privateTmp: true,
    });
    assert.equal(
      profile,
      [
        '(version 1)',
        '(deny default)',
        '(allow process-exec)',
        '(allow process-fork)',
        '(allow signal (target same-sandbox))',
        '(allow sysctl-read)',
        '(allow mach-lookup)',
        '(allow file-read*)',
        '(allow file-write-data (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
        '(allow file-write* (require-all (subpath "/Users/me/my \\"repo\\"") (require-not (subpath "/Users/me/my \\"repo\\"/.git"))))',
        '(allow file-write* (subpath "/private/tmp"))',
        '',
      ].join('\n'),
    );
    assert.match(
      seatbeltProfile({ writableRoots: [], network: true, privateTmp: false }),
      /\(allow network-outbound\)/,
    );
  });
});
