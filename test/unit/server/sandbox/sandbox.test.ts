import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bubblewrapArgs } from '../../../../server/sandbox/bubblewrap';
import { releaseSandbox, wrapCommand } from '../../../../server/sandbox/sandbox';
import { confinementOf } from '../../../../server/sandbox/writableRoots';
import { tempDir } from '../../../support/serverProcess';

describe('sandbox policies', () => {
  const repo = tempDir('threadline-sbx-');
  mkdirSync(join(repo, '.git'));
  const extra = tempDir('threadline-sbx-extra-');
  // Threadline's home is hidden from commands when it exists; here it does not.
  const savedHome = process.env.THREADLINE_HOME;
  before(() => (process.env.THREADLINE_HOME = join(repo, 'no-home')));
  after(() => {
    if (savedHome === undefined) delete process.env.THREADLINE_HOME;
    else process.env.THREADLINE_HOME = savedHome;
  });
  const workspace = {
    type: 'workspaceWrite' as const,
    writableRoots: [extra],
    networkAccess: false,
    excludeTmpdirEnvVar: true,
    excludeSlashTmp: false,
  };

  it('workspaceWrite: the cwd and the listed roots, each .git kept read-only, a private /tmp', async () => {
    const confinement = await confinementOf(workspace, repo, {});
    assert.deepEqual(confinement, {
      writableRoots: [
        { root: repo, readOnly: [join(repo, '.git')] },
        { root: extra, readOnly: [] },
      ],
      hidden: [],
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
      '--bind',
      extra,
      extra,
      '--ro-bind',
      join(repo, '.git'),
      join(repo, '.git'),
      '--unshare-net',
      '--',
      'ls',
    ]);
  });

  it('network, TMPDIR and /tmp follow the policy flags', async () => {
    const open = await confinementOf(
      { ...workspace, networkAccess: true, excludeTmpdirEnvVar: false, excludeSlashTmp: true },
      repo,
      { TMPDIR: extra },
    );
    assert.equal(open.network, true);
    assert.equal(open.privateTmp, false);
    assert.ok(!bubblewrapArgs(open, ['x']).includes('--unshare-net'));
    assert.deepEqual(await confinementOf({ type: 'readOnly', networkAccess: false }, repo, {}), {
      writableRoots: [],
      hidden: [],
      network: false,
      privateTmp: false,
    });
    assert.equal((await confinementOf({ type: 'dangerFullAccess' }, repo, {})).writableRoots, null);
  });

  it('wraps only what needs confining, and says when it cannot', async () => {
    const bwrap = { kind: 'bubblewrap' as const, program: '/usr/bin/bwrap' };
    assert.deepEqual(await wrapCommand(['ls'], { type: 'dangerFullAccess' }, repo, {}, bwrap), {
      argv: ['ls'],
      sandbox: null,
      unavailable: null,
      fd3: null,
      env: {},
      privateTmp: null,
      names: null,
    });
    const wrapped = await wrapCommand(['ls'], workspace, repo, {}, bwrap);
    assert.deepEqual(wrapped.argv.slice(0, 3), ['/usr/bin/bwrap', '--seccomp', '3']);
    assert.equal(wrapped.sandbox, 'bubblewrap');
    assert.ok(wrapped.fd3 && wrapped.fd3.length > 0 && wrapped.fd3.length % 8 === 0, 'a seccomp program');
    await releaseSandbox(wrapped);
    assert.deepEqual(await wrapCommand(['ls'], workspace, repo, {}, { kind: 'none', reason: 'no bwrap' }), {
      argv: ['ls'],
      sandbox: null,
      unavailable: 'no bwrap',
      fd3: null,
      env: {},
      privateTmp: null,
      names: null,
    });
  });
});
