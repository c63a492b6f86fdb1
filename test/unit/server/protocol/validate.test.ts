import { strict as assert } from 'node:assert';
import { experimentalUse, isClientMethod, validateParams } from '../../../../server/protocol/validate';
import {
  normalizeApprovalPolicy,
  normalizeSandboxMode,
  normalizeSandboxPolicy,
} from '../../../../server/protocol/enums';

describe('protocol validation', () => {
  it('knows the methods of its table and nothing else', () => {
    assert.ok(isClientMethod('thread/start'));
    assert.ok(!isClientMethod('toString'));
    assert.ok(!isClientMethod('thread/teleport'));
  });

  it('names the nested field that is wrong', () => {
    const result = validateParams('initialize', { clientInfo: { name: 'x' } });
    assert.deepEqual(result, {
      ok: false,
      message: 'Invalid params: clientInfo.version: expected string (missing)',
    });
  });

  it('answers alike before and after an often-called method gets a compiled check', () => {
    // Each method's first calls walk the schema; later ones run a compiled check.
    const calls = Array.from({ length: 80 }, (_, i) => [
      validateParams('thread/read', { threadId: 't', includeTurns: 'yes' }),
      validateParams('thread/read', { threadId: `t${i}` }),
    ]);
    for (const [bad, good] of calls) {
      assert.deepEqual(bad, calls[0]![0]);
      assert.equal(good!.ok, true);
    }
    assert.equal(calls[0]![0]!.ok, false);
  });

  it('rejects params sent by position', () => {
    assert.equal(validateParams('thread/list', [1, 2]).ok, false);
  });

  it('detects experimental fields only when they carry a value', () => {
    assert.equal(experimentalUse('thread/start', { dynamicTools: [] }), 'thread/start.dynamicTools');
    assert.equal(experimentalUse('thread/start', { dynamicTools: null }), undefined);
    assert.equal(experimentalUse('thread/start', { model: 'x' }), undefined);
  });

  it('normalizes every accepted spelling to the schema spelling', () => {
    assert.deepEqual(
      ['unlessTrusted', 'untrusted', 'onRequest', 'on-request', 'onFailure', 'never'].map((p) =>
        normalizeApprovalPolicy(p as never),
      ),
      ['untrusted', 'untrusted', 'on-request', 'on-request', 'on-request', 'never'],
    );
    assert.deepEqual(
      ['readOnly', 'workspace-write', 'dangerFullAccess'].map((m) => normalizeSandboxMode(m as never)),
      ['read-only', 'workspace-write', 'danger-full-access'],
    );
    assert.deepEqual(
      normalizeSandboxPolicy({ type: 'workspace-write', writableRoots: ['/a'], networkAccess: true }),
      {
        type: 'workspaceWrite',
        writableRoots: ['/a'],
        networkAccess: true,
        excludeTmpdirEnvVar: false,
        excludeSlashTmp: false,
      },
    );
  });
});
