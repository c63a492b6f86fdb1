import { strict as assert } from 'node:assert';
import { RestartPolicy } from '../../../../extension/client/restartPolicy';
import { backoffDelay, retryOverloaded } from '../../../../extension/client/backoff';

describe('restart policy', () => {
  it('allows four restarts in three minutes, then refuses until the window moves on', () => {
    const policy = new RestartPolicy();
    const t = 1_000_000;
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((i) => policy.allow(t + i * 1000)),
      [true, true, true, true, false],
    );
    assert.equal(policy.allow(t + 3 * 60_000 - 1), false);
    assert.equal(policy.allow(t + 3 * 60_000 + 1), true, 'the first restart left the window');
  });

  it('starts afresh after a reset', () => {
    const policy = new RestartPolicy(1, 1000);
    assert.equal(policy.allow(0), true);
    assert.equal(policy.allow(1), false);
    policy.reset();
    assert.equal(policy.allow(2), true);
  });
});

describe('backoff for overloaded answers', () => {
  it('grows exponentially up to a ceiling, with full jitter', () => {
    const options = { baseMs: 100, maxMs: 1000, attempts: 5 };
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((a) => backoffDelay(a, options, () => 0.999)),
      [99, 199, 399, 799, 999],
    );
    assert.equal(
      backoffDelay(3, options, () => 0),
      0,
    );
  });

  it('retries only -32001, and gives up after the last attempt', async () => {
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    let calls = 0;
    const value = await retryOverloaded(
      async () => {
        if (++calls < 3) throw Object.assign(new Error('busy'), { code: -32001 });
        return 'done';
      },
      { baseMs: 10, maxMs: 100, attempts: 5 },
      sleep,
    );
    assert.equal(value, 'done');
    assert.equal(slept.length, 2);
    await assert.rejects(
      retryOverloaded(
        async () => Promise.reject(Object.assign(new Error('bad'), { code: -32602 })),
        undefined,
        sleep,
      ),
      /bad/,
    );
    calls = 0;
    await assert.rejects(
      retryOverloaded(
        async () => {
          calls++;
          throw Object.assign(new Error('still busy'), { code: -32001 });
        },
        { baseMs: 1, maxMs: 1, attempts: 3 },
        sleep,
      ),
      /still busy/,
    );
    assert.equal(calls, 3);
  });
});
