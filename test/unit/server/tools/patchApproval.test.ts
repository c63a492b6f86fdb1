import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ToolPermissions } from '../../../../server/agent/tool';
import { patchVerdict } from '../../../../server/tools/applyPatch/patchApproval';
import { tempDir } from '../../../support/serverProcess';

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
  const writes = (...paths: string[]) => paths.map((path) => ({ path, target: path }));

  it('applies writes inside the roots, but asks about every patch under untrusted', async () => {
    const inside = writes(join(cwd, 'a.txt'));
    assert.deepEqual(await patchVerdict(inside, permissions('on-request'), cwd, never), { kind: 'apply' });
    assert.deepEqual(await patchVerdict(inside, permissions('never'), cwd, never), { kind: 'apply' });
    assert.deepEqual(await patchVerdict(inside, permissions('untrusted'), cwd, never), {
      kind: 'ask',
      reason: null,
      grantRoot: cwd,
    });
  });

  it('asks about writes outside the roots with their common directory as the root, or refuses when it may not ask', async () => {
    const outside = writes(join(dirname(cwd), 'x', 'a.txt'), join(dirname(cwd), 'x', 'b', 'c.txt'));
    const asked = await patchVerdict(outside, permissions('on-request'), cwd, never);
    assert.equal(asked.kind, 'ask');
    assert.equal(asked.kind === 'ask' && asked.grantRoot, join(dirname(cwd), 'x'));
    assert.match(asked.kind === 'ask' ? String(asked.reason) : '', /outside the sandbox's writable roots/);
    assert.equal((await patchVerdict(outside, permissions('never'), cwd, never)).kind, 'refuse');
    const granular = { granular: { sandbox_approval: false, rules: true, mcp_elicitations: true } };
    assert.equal((await patchVerdict(outside, permissions(granular), cwd, never)).kind, 'refuse');
  });

  it('applies what an earlier acceptForSession covers', async () => {
    const outside = writes(join(dirname(cwd), 'y.txt'));
    assert.deepEqual(await patchVerdict(outside, permissions('never'), cwd, () => true), { kind: 'apply' });
  });

  it('never lets a session grant cover a protected path, and names the link a write goes through', async () => {
    const hook = writes(join(cwd, '.git', 'hooks', 'pre-commit'));
    const asked = await patchVerdict(hook, permissions('on-request'), cwd, () => true);
    assert.equal(asked.kind, 'ask');
    assert.match(asked.kind === 'ask' ? String(asked.reason) : '', /protected folder .*pre-commit/);
    assert.equal((await patchVerdict(hook, permissions('never'), cwd, () => true)).kind, 'refuse');
    const linked = [{ path: join(cwd, 'notes.txt'), target: join(dirname(cwd), 'elsewhere.txt') }];
    const refused = await patchVerdict(linked, permissions('never'), cwd, never);
    assert.equal(refused.kind, 'refuse');
    assert.match(
      refused.kind === 'refuse' ? refused.reason : '',
      /notes\.txt \(a link to .*elsewhere\.txt\)/,
    );
  });
});
