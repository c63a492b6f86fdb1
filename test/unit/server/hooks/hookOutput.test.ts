// How a hook's run is read (hookOutput.ts): the reference's exit codes and JSON answers, and a
// PreToolUse answer that cannot be read blocking the call (fail closed) where other events only fail.
import { strict as assert } from 'node:assert';
import { verdictOf } from '../../../../server/hooks/hookOutput';
import type { HookProcessResult } from '../../../../server/hooks/hookProcess';

const ran = (exitCode: number, stdout = '', stderr = '', timedOut = false): HookProcessResult => ({
  ran: true,
  exitCode,
  stdout,
  stderr,
  timedOut,
  durationMs: 5,
});

describe('verdictOf', () => {
  it('goes on after exit 0 with nothing, plain text or an approving answer', () => {
    for (const stdout of ['', 'checked\n', '{}', '{"decision":"approve"}', '{"systemMessage":"note"}']) {
      const verdict = verdictOf('PreToolUse', ran(0, stdout), 10);
      assert.equal(verdict.status, 'completed', stdout);
      assert.equal(verdict.block, null, stdout);
    }
    assert.deepEqual(verdictOf('Stop', ran(0, '{"systemMessage":"note"}'), 10).entries, [
      { kind: 'warning', text: 'note' },
    ]);
  });

  it('reads plain output and additionalContext as context for the model at a session or prompt start', () => {
    assert.deepEqual(verdictOf('SessionStart', ran(0, 'uses pnpm\n'), 10).entries, [
      { kind: 'context', text: 'uses pnpm' },
    ]);
    const answer = { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'ABC-1' } };
    assert.deepEqual(verdictOf('UserPromptSubmit', ran(0, JSON.stringify(answer)), 10).entries, [
      { kind: 'context', text: 'ABC-1' },
    ]);
    assert.deepEqual(verdictOf('Stop', ran(0, 'plain'), 10).entries, []);
  });

  it('blocks on exit 2 with stderr as the reason, for the events that can block', () => {
    assert.deepEqual(verdictOf('PreToolUse', ran(2, '', 'not this one\n'), 10), {
      status: 'blocked',
      entries: [{ kind: 'feedback', text: 'not this one' }],
      block: 'not this one',
    });
    assert.equal(verdictOf('Stop', ran(2), 10).block, 'blocked by a Stop hook (exit code 2)');
    assert.equal(verdictOf('SessionStart', ran(2, '', 'x'), 10).status, 'failed');
    assert.equal(verdictOf('UserPromptSubmit', ran(2, '', 'no keys'), 10).block, 'no keys');
  });

  it('blocks on a deny or a block decision, with its reason', () => {
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no',
      },
    });
    assert.equal(verdictOf('PreToolUse', ran(0, deny), 10).block, 'no');
    assert.equal(
      verdictOf('Stop', ran(0, '{"decision":"block","reason":"test first"}'), 10).block,
      'test first',
    );
    const stop = verdictOf('PreToolUse', ran(0, '{"continue":false,"stopReason":"enough"}'), 10);
    assert.equal(stop.status, 'stopped');
    assert.equal(stop.block, 'enough');
  });

  it('reports other exits, timeouts and hooks that did not run as failures that block nothing', () => {
    assert.deepEqual(verdictOf('PreToolUse', ran(1, '', 'boom'), 10), {
      status: 'failed',
      entries: [{ kind: 'error', text: 'exited with code 1: boom' }],
      block: null,
    });
    assert.match(verdictOf('PreToolUse', ran(137, '', '', true), 7).entries[0]!.text, /timed out after 7s/);
    assert.equal(verdictOf('PreToolUse', { ran: false, reason: 'no sandbox' }, 7).block, null);
  });

  it('fails closed on a PreToolUse answer it cannot read, and only fails elsewhere', () => {
    const unreadable = [
      '{"decision": "maybe"}',
      '{"permissionDecision": "deny"',
      '[1, 2]',
      '{"surprise": true}',
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}',
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{}}}',
      '{"hookSpecificOutput":{"hookEventName":"Stop"}}',
      '{"continue": "no"}',
    ];
    for (const stdout of unreadable) {
      const guard = verdictOf('PreToolUse', ran(0, stdout), 10);
      assert.equal(guard.status, 'blocked', stdout);
      assert.match(guard.block!, /unusable output/, stdout);
      const after = verdictOf('PostToolUse', ran(0, stdout), 10);
      assert.equal(after.status, 'failed', stdout);
      assert.equal(after.block, null, stdout);
    }
    assert.equal(
      verdictOf('Stop', ran(0, '{"decision":"block"}'), 10).status,
      'failed',
      'a block needs a reason',
    );
  });
});
