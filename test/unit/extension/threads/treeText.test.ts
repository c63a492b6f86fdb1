import { strict as assert } from 'node:assert';
import { recencyOf, relativeTime } from '../../../../extension/threads/recency';
import { statusLook } from '../../../../extension/threads/threadLabels';
import { threadTitle as threadLabel } from '../../../../webview/common/threadTitle';

// Local times, as the user sees them: Wednesday 2026-11-18 15:00.
const now = new Date(2026, 10, 18, 15, 0, 0);
const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) =>
  new Date(y, mo, d, h, mi, s).getTime() / 1000;

describe('recency groups', () => {
  it('splits at local midnights: today, yesterday, the 6 days before, older', () => {
    assert.equal(recencyOf(at(2026, 10, 18, 0, 0, 0), now), 'today');
    assert.equal(recencyOf(at(2026, 10, 17, 23, 59, 59), now), 'yesterday');
    assert.equal(recencyOf(at(2026, 10, 17, 0, 0, 0), now), 'yesterday');
    assert.equal(recencyOf(at(2026, 10, 16, 23, 0), now), 'week');
    assert.equal(recencyOf(at(2026, 10, 11, 0, 0, 0), now), 'week');
    assert.equal(recencyOf(at(2026, 10, 10, 23, 59, 59), now), 'older');
  });

  it('describes times relative to now, then by date', () => {
    const seconds = now.getTime() / 1000;
    assert.equal(relativeTime(seconds - 20, now), 'just now');
    assert.equal(relativeTime(seconds + 30, now), 'just now', 'a clock a little ahead');
    assert.equal(relativeTime(seconds - 5 * 60, now), '5 min ago');
    assert.equal(relativeTime(seconds - 3 * 3600, now), '3 h ago');
    assert.equal(relativeTime(seconds - 30 * 3600, now), 'yesterday');
    assert.equal(relativeTime(seconds - 4 * 86_400, now), '4 days ago');
    assert.equal(
      relativeTime(seconds - 10 * 86_400, now),
      new Date((seconds - 10 * 86_400) * 1000).toLocaleDateString(),
    );
  });
});

describe('thread labels', () => {
  it('prefers the name, then the first prompt on one line, trimmed to 80 characters', () => {
    assert.equal(threadLabel({ name: 'Login bug', preview: 'Fix it' }), 'Login bug');
    assert.equal(threadLabel({ name: '  ', preview: '  Fix\n  the   login ' }), 'Fix the login');
    assert.equal(threadLabel({ name: null, preview: '' }), 'New thread');
    const long = threadLabel({ name: null, preview: 'x'.repeat(200) });
    assert.equal(long.length, 80);
    assert.ok(long.endsWith('…'));
  });

  it('looks running, waiting, failed or idle by status', () => {
    assert.equal(statusLook({ type: 'active', activeFlags: [] }), 'running');
    assert.equal(statusLook({ type: 'active', activeFlags: ['waitingOnApproval'] }), 'waiting');
    assert.equal(statusLook({ type: 'systemError' }), 'error');
    assert.equal(statusLook({ type: 'idle' }), 'idle');
    assert.equal(statusLook({ type: 'notLoaded' }), 'idle');
  });
});
