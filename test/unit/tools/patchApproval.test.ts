import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ToolPermissions } from '../../../server/agent/tool';
import { patchVerdict } from '../../../server/tools/applyPatch/patchApproval';
import { tempDir } from '../../helpers/serverProcess';

describe('apply_patch approval verdicts', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = tempDir('threadline-verdict-');
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  const sandbox = { type: 'workspaceWrite' as const, excludeSlashTmp: true, excludeTmpdirEnvVar: true };
  const permissions = (approvalPolicy: ToolPermissions['approvalPolicy']): ToolPermissions => ({
    approvalPolicy,
    retryUnsandboxedOnFailure: false,
    sandboxPolicy: sandbox,
  });
  const never = () => false;

  it('applies writes inside the roots, but asks about every patch under untrusted', async () => {
    const inside = [join(cwd, 'a.txt')];
    assert.deepEqual(await patchVerdict(inside, permissions('on-request'), cwd, never), { kind: 'apply' });
    assert.deepEqual(await patchVerdict(inside, permissions('never'), cwd, never), { kind: 'apply' });
    assert.deepEqual(await patchVerdict(inside, permissions('untrusted'), cwd, never), {
      kind: 'ask',
      reason: null,
      grantRoot: cwd,
    });
  });

  it('asks about writes outside the roots with their common directory as the root, or refuses when it may not ask', async () => {
    const outside = [join(dirname(cwd), 'x', 'a.txt'), join(dirname(cwd), 'x', 'b', 'c.txt')];
    const asked = await patchVerdict(outside, permissions('on-request'), cwd, never);
    assert.equal(asked.kind, 'ask');
    assert.equal(asked.kind === 'ask' && asked.grantRoot, join(dirname(cwd), 'x'));
    assert.match(asked.kind === 'ask' ? String(asked.reason) : '', /outside the sandbox's writable roots/);
    assert.equal((await patchVerdict(outside, permissions('never'), cwd, never)).kind, 'refuse');
    const granular = { granular: { sandbox_approval: false, rules: true, mcp_elicitations: true } };
    assert.equal((await patchVerdict(outside, permissions(granular), cwd, never)).kind, 'refuse');
  });

  it('applies what an earlier acceptForSession covers', async () => {
    const outside = [join(dirname(cwd), 'y.txt')];
    assert.deepEqual(await patchVerdict(outside, permissions('never'), cwd, () => true), { kind: 'apply' });
  });
});
