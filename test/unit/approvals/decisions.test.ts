import { strict as assert } from 'node:assert';
import { readDecision } from '../../../server/approvals/decisions';
import { proposedPrefix } from '../../../server/approvals/commandPrefixes';
import { readRules } from '../../../server/approvals/execpolicyRules';
import { SessionGrants } from '../../../server/approvals/sessionGrants';
import { parseCommandLine } from '../../../server/exec/commandLine';

describe('approval decisions', () => {
  it('reads every decision shape of the schema', () => {
    assert.deepEqual(readDecision({ decision: 'accept' }, 'command').decision, {
      outcome: 'accept',
      forSession: false,
    });
    assert.deepEqual(readDecision({ decision: 'acceptForSession' }, 'fileChange').decision, {
      outcome: 'accept',
      forSession: true,
    });
    assert.equal(readDecision({ decision: 'decline' }, 'command').decision.outcome, 'decline');
    assert.equal(readDecision({ decision: 'cancel' }, 'fileChange').decision.outcome, 'cancel');
    assert.deepEqual(
      readDecision(
        { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['git', 'status'] } } },
        'command',
      ).decision,
      { outcome: 'accept', forSession: false, execpolicyAmendment: ['git', 'status'] },
    );
    const network = (action: string) =>
      readDecision(
        {
          decision: { applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'x.dev', action } } },
        },
        'command',
      ).decision;
    assert.deepEqual(network('allow'), {
      outcome: 'accept',
      forSession: false,
      networkPolicyAmendment: { host: 'x.dev', action: 'allow' },
    });
    assert.equal(network('deny').outcome, 'decline');
  });

  it('reads the older acceptSettings form and the v1 review words', () => {
    assert.deepEqual(
      readDecision({ decision: 'accept', acceptSettings: { forSession: true } }, 'command').decision,
      { outcome: 'accept', forSession: true },
    );
    assert.deepEqual(
      readDecision({ decision: 'accept', acceptSettings: { forSession: false } }, 'command').decision,
      { outcome: 'accept', forSession: false },
    );
    assert.deepEqual(readDecision({ decision: 'approved_for_session' }, 'fileChange').decision, {
      outcome: 'accept',
      forSession: true,
    });
    assert.equal(readDecision({ decision: 'abort' }, 'command').decision.outcome, 'cancel');
    // A session grant never rides on a refusal.
    assert.deepEqual(
      readDecision({ decision: 'decline', acceptSettings: { forSession: true } }, 'command').decision,
      { outcome: 'decline', forSession: false },
    );
  });

  it('takes anything it cannot read as a decline, and says why', () => {
    for (const answer of [
      null,
      'accept',
      {},
      { decision: 'yes' },
      { decision: 42 },
      { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: [] } } },
      { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: [1] } } },
      { decision: { applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'x' } } } },
      { decision: { somethingNew: {} } },
    ]) {
      const read = readDecision(answer, 'command');
      assert.equal(read.decision.outcome, 'decline', JSON.stringify(answer));
      assert.ok(read.problem, JSON.stringify(answer));
    }
    // File changes have no amendment forms.
    const amended = { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['ls'] } } };
    assert.equal(readDecision(amended, 'fileChange').decision.outcome, 'decline');
  });

  it('reads acceptWithEdits on a file change, only from an experimentalApi client', () => {
    const files = [{ path: '/repo/a.txt', content: 'mine\n' }];
    const edits = { decision: { acceptWithEdits: { files } } };
    assert.deepEqual(readDecision(edits, 'fileChange', true), {
      decision: { outcome: 'accept', forSession: false, edits: files },
    });
    const forSession = { decision: { acceptWithEdits: { files, forSession: true } } };
    assert.deepEqual(readDecision(forSession, 'fileChange', true).decision, {
      outcome: 'accept',
      forSession: true,
      edits: files,
    });
    const gated = readDecision(edits, 'fileChange', false);
    assert.equal(gated.decision.outcome, 'decline');
    assert.match(gated.problem ?? '', /did not opt into experimentalApi/);
    assert.equal(readDecision(edits, 'command', true).decision.outcome, 'decline');
    for (const bad of [
      { acceptWithEdits: {} },
      { acceptWithEdits: { files: [{ path: '/a' }] } },
      { acceptWithEdits: { files: [{ path: 1, content: '' }] } },
      { acceptWithEdits: { files: [] }, extra: true },
      { acceptWithEdits: { files: [], forSession: 'yes' } },
    ]) {
      const read = readDecision({ decision: bad }, 'fileChange', true);
      assert.equal(read.decision.outcome, 'decline', JSON.stringify(bad));
      assert.match(read.problem ?? '', /acceptWithEdits needs/);
    }
  });
});

describe('session grants', () => {
  const line = parseCommandLine;

  it('covers each command of an approved plain line as a prefix, word for word, and nothing chained to it', () => {
    const grants = new SessionGrants();
    assert.equal(grants.commandAllowed(line('git status')), false);
    grants.allowCommandLine(line('git status'));
    assert.equal(grants.commandAllowed(line('git status')), true);
    assert.equal(grants.commandAllowed(line('git status --short')), true);
    assert.equal(grants.commandAllowed(line('git push')), false);
    assert.equal(grants.commandAllowed(line('git')), false);
    assert.equal(grants.commandAllowed(line('git statusx')), false);
    assert.equal(grants.commandAllowed(line('git status; rm -rf ~')), false);
    assert.equal(grants.commandAllowed(line('git status && curl x | sh')), false);
    assert.equal(grants.commandAllowed(line('git status > /etc/passwd')), false);
    assert.equal(grants.commandAllowed(line('git status $(rm -rf ~)')), false);
    assert.equal(
      grants.commandAllowed(line('cd src && git status')),
      true,
      'a read-only command rides along',
    );
    grants.allowCommandLine(line('npm ci && npm test'));
    assert.equal(grants.commandAllowed(line('npm test')), true);
    assert.equal(grants.commandAllowed(line('npm test && npm ci')), true);
    assert.equal(grants.commandAllowed(line('npm test && npm publish')), false);
    assert.equal(grants.commandAllowed(line('rm -rf /'), [['rm', '-rf', '/tmp/x']]), false);
    assert.equal(grants.commandAllowed(line('rm -rf /tmp/x/y'), [['rm', '-rf', '/tmp/x']]), false);
    assert.equal(grants.commandAllowed(line('rm -rf /tmp/x y'), [['rm', '-rf', '/tmp/x']]), true);
  });

  it('allows a line with shell effects approved for the session again only exactly as it was', () => {
    const grants = new SessionGrants();
    grants.allowCommandLine(line('echo hi > out.txt'));
    assert.equal(grants.commandAllowed(line('echo hi > out.txt')), true);
    assert.equal(grants.commandAllowed(line('echo hi > out.txt; rm -rf ~')), false);
    assert.equal(grants.commandAllowed(line('echo hi > other.txt')), false);
  });

  it('covers paths inside an approved root, and nothing beside it', () => {
    const grants = new SessionGrants();
    grants.allowRoot('/work/repo/src');
    assert.equal(grants.pathsAllowed(['/work/repo/src/a.ts', '/work/repo/src/deep/b.ts']), true);
    assert.equal(grants.pathsAllowed(['/work/repo/src']), true);
    assert.equal(grants.pathsAllowed(['/work/repo/src/a.ts', '/work/repo/README.md']), false);
    assert.equal(grants.pathsAllowed(['/work/repo/srcfoo/a.ts']), false);
    assert.equal(grants.pathsAllowed(['/work/repo/src/../secret']), false);
    assert.equal(grants.pathsAllowed(['/work/repo/src/..notparent']), true);
    assert.equal(grants.pathsAllowed([]), false);
  });
});

describe('command prefixes', () => {
  it('proposes the first command that does not only read, never a bare launcher or a line with effects', () => {
    const propose = (text: string, allowed: string[][] = []) =>
      proposedPrefix(parseCommandLine(text), allowed);
    assert.deepEqual(propose('npm test'), ['npm', 'test']);
    assert.deepEqual(propose('cd src && cargo build --release && ls'), ['cargo', 'build', '--release']);
    assert.deepEqual(propose("bash -lc 'make -j4'"), ['make', '-j4']);
    assert.deepEqual(
      propose('ls -la'),
      ['ls', '-la'],
      'a read-only line asked about (escalated) still gets one',
    );
    assert.equal(propose('npm test > log.txt'), null);
    assert.equal(propose('echo $(whoami)'), null);
    assert.equal(propose('bash'), null);
    assert.equal(propose('/usr/bin/sudo'), null);
    assert.deepEqual(propose('sudo apt-get update'), ['sudo', 'apt-get', 'update']);
    assert.deepEqual(
      propose('npm ci && npm test', [['npm', 'ci']]),
      ['npm', 'test'],
      'not what is allowed already',
    );
  });
});

describe('execpolicy rules files', () => {
  it('reads allow rules of plain words and counts the rest as ignored', () => {
    const text = [
      '# a comment: prefix_rule(pattern=["rm"], decision="allow")',
      'prefix_rule(pattern=["npm", "test"], decision="allow")',
      'prefix_rule(pattern = ["git", "push",], decision = "allow", match = [["git", "push"]])',
      'prefix_rule(pattern=["make"])',
      'prefix_rule(pattern=["gh", ["pr", "issue"]], decision="allow")',
      'prefix_rule(pattern=["rm", "-rf"], decision="forbidden")',
      "prefix_rule(pattern=['single'], decision='allow')",
      'prefix_rule(pattern=["echo", "(x)"], decision="allow")',
    ].join('\n');
    assert.deepEqual(readRules(text), {
      prefixes: [['npm', 'test'], ['git', 'push'], ['make']],
      ignored: 4,
    });
  });
});
