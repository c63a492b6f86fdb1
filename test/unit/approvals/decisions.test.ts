import { strict as assert } from 'node:assert';
import { readDecision } from '../../../server/approvals/decisions';
import { SessionGrants } from '../../../server/approvals/sessionGrants';

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
    const gated = readDecision(edits, 'fileChange', false);
    assert.equal(gated.decision.outcome, 'decline');
    assert.match(gated.problem ?? '', /did not opt into experimentalApi/);
    assert.equal(readDecision(edits, 'command', true).decision.outcome, 'decline');
    for (const bad of [
      { acceptWithEdits: {} },
      { acceptWithEdits: { files: [{ path: '/a' }] } },
      { acceptWithEdits: { files: [{ path: 1, content: '' }] } },
      { acceptWithEdits: { files: [] }, extra: true },
    ]) {
      const read = readDecision({ decision: bad }, 'fileChange', true);
      assert.equal(read.decision.outcome, 'decline', JSON.stringify(bad));
      assert.match(read.problem ?? '', /acceptWithEdits needs/);
    }
  });
});

describe('session grants', () => {
  it('covers commands that start with an approved prefix, word for word', () => {
    const grants = new SessionGrants();
    assert.equal(grants.commandAllowed(['git', 'status']), false);
    grants.allowCommandPrefix(['git', 'status']);
    assert.equal(grants.commandAllowed(['git', 'status']), true);
    assert.equal(grants.commandAllowed(['git', 'status', '--short']), true);
    assert.equal(grants.commandAllowed(['git', 'push']), false);
    assert.equal(grants.commandAllowed(['git']), false);
    assert.equal(grants.commandAllowed(['git', 'statusx']), false);
    grants.allowCommandPrefix([]);
    assert.equal(grants.commandAllowed(['rm', '-rf', '/']), false);
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
