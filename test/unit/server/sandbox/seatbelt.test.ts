// The macOS Seatbelt profile, checked on its text (sandbox-exec only runs on macOS): closed by
// default, an explicit list of Mach services with nothing that starts programs outside the sandbox,
// writes only where the policy says plus the command's own temp folder, no socket at all without
// network, and no Unix socket but the DNS resolver's with it.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { releaseSandbox, wrapCommand } from '../../../../server/sandbox/sandbox';
import { seatbeltProfile } from '../../../../server/sandbox/seatbelt';
import { tempDir } from '../../../support/serverProcess';

const repo = '/Users/me/my "repo"';
const confined = (network: boolean) => ({
  writableRoots: [{ root: repo, readOnly: [`${repo}/.git`] }],
  hidden: ['/Users/me/.threadline'],
  network,
  privateTmp: true,
});

const PROTECTED = String.raw`\.[gG][iI][tT]|\.[tT][hH][rR][eE][aA][dD][lL][iI][nN][eE]|\.[cC][oO][dD][eE][xX]|\.[vV][sS][cC][oO][dD][eE]`;

/** Every `(global-name "…")` the profile allows, in order. */
const machServices = (profile: string) =>
  [...profile.matchAll(/\(global-name "([^"]+)"\)/g)].map((m) => m[1]);

describe('Seatbelt profile', () => {
  it('without network: closed by default, explicit Mach services, writes to the roots and its own temp only', () => {
    assert.equal(
      seatbeltProfile(confined(false), '/private/var/folders/xy/T/threadline-sandbox-1'),
      [
        '(version 1)',
        '(deny default)',
        '(allow process-exec)',
        '(allow process-fork)',
        '(allow signal (target same-sandbox))',
        '(allow process-info* (target same-sandbox))',
        '(allow mach-host*)',
        '(allow sysctl-read)',
        '(allow sysctl-write (sysctl-name "kern.grade_cputype"))',
        '(allow user-preference-read)',
        '(allow ipc-posix-sem)',
        '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
        '(allow file-read*)',
        '(allow file-write-data (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))',
        '(allow mach-lookup',
        '  (global-name "com.apple.system.opendirectoryd.libinfo")',
        '  (global-name "com.apple.system.opendirectoryd.membership")',
        '  (global-name "com.apple.PowerManagement.control")',
        ')',
        '(allow file-write* (require-all (subpath "/Users/me/my \\"repo\\"") (require-not (subpath "/Users/me/my \\"repo\\"/.git"))))',
        '(allow file-write* (subpath "/private/var/folders/xy/T/threadline-sandbox-1"))',
        `(deny file-write* (regex #"^/Users/me/my .repo./(.*/)?(${PROTECTED})(/|$)"))`,
        '(deny file-read* file-write* (subpath "/Users/me/.threadline"))',
        '',
      ].join('\n'),
    );
  });

  it('leaves a thread’s worktree in the hidden home visible and writable, and the rest of the home hidden', () => {
    const worktree = '/Users/me/.threadline/worktrees/repo/thread-1';
    const profile = seatbeltProfile(
      {
        writableRoots: [{ root: worktree, readOnly: [`${worktree}/.git`] }],
        hidden: ['/Users/me/.threadline'],
        network: false,
        privateTmp: false,
      },
      null,
    );
    assert.ok(
      profile.includes(
        `(deny file-read* file-write* (require-all (subpath "/Users/me/.threadline") (require-not (subpath "${worktree}"))))`,
      ),
      profile,
    );
    // A root elsewhere in the home, or the folder of a repository's worktrees, is not one: the home
    // stays hidden whole.
    for (const root of ['/Users/me/.threadline/sessions', '/Users/me/.threadline/worktrees/repo']) {
      const elsewhere = seatbeltProfile(
        { ...confined(false), writableRoots: [{ root, readOnly: [] }] },
        null,
      );
      assert.ok(
        elsewhere.includes('(deny file-read* file-write* (subpath "/Users/me/.threadline"))'),
        elsewhere,
      );
    }
  });

  it('never allows every Mach service, nor LaunchServices, the pasteboard or the keychain', () => {
    for (const network of [false, true]) {
      const profile = seatbeltProfile(confined(network), null);
      assert.doesNotMatch(profile, /\(allow mach-lookup\)/);
      assert.doesNotMatch(profile, /global-name-(regex|prefix)/);
      for (const name of machServices(profile)) {
        assert.doesNotMatch(
          name,
          /lsd|launchservices|coreservices|pasteboard|securityd|SecurityServer|xpc\.launchd/i,
        );
      }
      assert.doesNotMatch(profile, /\/private\/tmp|\/private\/var\/folders"\)/, 'the shared temp folders');
    }
  });

  it('with network: IP anywhere, the DNS resolver, TLS trust; still no other Unix socket', () => {
    const profile = seatbeltProfile(confined(true), null);
    assert.match(profile, /^\(allow network-outbound \(remote ip "\*:\*"\)\)$/m);
    const unixSockets = [...profile.matchAll(/unix-socket \(path-literal "([^"]+)"\)/g)].map((m) => m[1]);
    assert.deepEqual(unixSockets, ['/private/var/run/mDNSResponder']);
    assert.doesNotMatch(profile, /\(allow network-outbound\)|\(allow network\*\)/);
    assert.deepEqual(machServices(profile).slice(3), [
      'com.apple.dnssd.service',
      'com.apple.SystemConfiguration.configd',
      'com.apple.SystemConfiguration.DNSConfiguration',
      'com.apple.trustd',
      'com.apple.trustd.agent',
    ]);
    assert.doesNotMatch(seatbeltProfile(confined(false), null), /network|system-socket|dnssd|trustd/);
  });

  it('gives each command its own TMPDIR, writable, and removes it when released', async () => {
    const workspace = tempDir('threadline-seatbelt-');
    mkdirSync(join(workspace, '.git'));
    const policy = {
      type: 'workspaceWrite' as const,
      writableRoots: [],
      networkAccess: false,
      excludeTmpdirEnvVar: true,
      excludeSlashTmp: false,
    };
    const seatbelt = { kind: 'seatbelt' as const, program: '/usr/bin/sandbox-exec' };
    const wrapped = await wrapCommand(
      ['ls'],
      policy,
      workspace,
      { TMPDIR: '/var/folders/xy/T/', PATH: '/bin' },
      seatbelt,
    );
    const other = await wrapCommand(['ls'], policy, workspace, { PATH: '/bin' }, seatbelt);
    try {
      assert.ok(wrapped.privateTmp && existsSync(wrapped.privateTmp));
      assert.notEqual(wrapped.privateTmp, other.privateTmp, 'one per command');
      assert.equal(wrapped.env.TMPDIR, `${wrapped.privateTmp}/`);
      assert.equal(wrapped.env.PATH, '/bin');
      const [program, flag, profile, dashes, command] = wrapped.argv;
      assert.deepEqual([program, flag, dashes, command], ['/usr/bin/sandbox-exec', '-p', '--', 'ls']);
      assert.ok(profile!.includes(`(allow file-write* (subpath "${wrapped.privateTmp}"))`));
    } finally {
      await releaseSandbox(wrapped);
      await releaseSandbox(other);
    }
    assert.equal(existsSync(wrapped.privateTmp), false);
    assert.equal(existsSync(other.privateTmp!), false);
  });

  it('names the real paths of the roots, since Seatbelt matches them (a workspace reached by a link)', async () => {
    const place = tempDir('threadline-seatbelt-');
    const real = join(place, 'real');
    mkdirSync(real);
    symlinkSync(real, join(place, 'link'));
    const policy = { type: 'workspaceWrite' as const, writableRoots: [], networkAccess: false };
    const seatbelt = { kind: 'seatbelt' as const, program: '/usr/bin/sandbox-exec' };
    const wrapped = await wrapCommand(['ls'], policy, join(place, 'link'), {}, seatbelt);
    try {
      const profile = wrapped.argv[2]!;
      assert.ok(profile.includes(`(allow file-write* (subpath "${realpathSync(real)}"))`), profile);
      assert.ok(!profile.includes(join(place, 'link')), 'the link itself grants nothing');
    } finally {
      await releaseSandbox(wrapped);
    }
  });

  it('refuses writes to protected names under every root, existing or not, at any depth, in any case', () => {
    const profile = seatbeltProfile(
      {
        writableRoots: [
          { root: '/Users/me/ws', readOnly: [] },
          { root: '/Users/me/a+b (1)', readOnly: [] },
        ],
        hidden: [],
        network: false,
        privateTmp: false,
      },
      null,
    );
    const denies = [...profile.matchAll(/^\(deny file-write\* \(regex #"([^"]+)"\)\)$/gm)].map((m) => m[1]!);
    assert.equal(denies.length, 2, profile);
    // After every allow of a root, since Seatbelt's later rules win.
    assert.ok(profile.lastIndexOf('(allow file-write*') < profile.indexOf('(deny file-write* (regex'));
    const [workspace, special] = denies.map((source) => new RegExp(source));
    for (const denied of [
      '.git',
      '.GIT/hooks/pre-commit',
      'sub/deep/.git',
      '.threadline/config.toml',
      '.Codex',
      'x/.vscode/settings.json',
    ])
      assert.match(`/Users/me/ws/${denied}`, workspace!, denied);
    for (const allowed of [
      'src/a.ts',
      '.gitignore',
      '.github/workflows/ci.yml',
      'x.git',
      '.vscodeignore',
      'sub/.codex-notes',
    ])
      assert.doesNotMatch(`/Users/me/ws/${allowed}`, workspace!, allowed);
    assert.doesNotMatch('/Users/me/wsx/.git', workspace!, 'a sibling with the root as prefix');
    assert.match('/Users/me/a+b (1)/.git', special!, 'regex characters in the root are escaped');
    assert.doesNotMatch('/Users/me/aab (1)/.git', special!);
  });
});
