// Which state the page shows, as the pure reducer decides from host messages alone: loading (only for a
// page that showed a thread before), the start view, a thread, and the server's failure over either.
import * as assert from 'node:assert/strict';
import type { HostMessage } from '../../../webview/messages';
import { initialViewStatus, reduceViewStatus, type ViewStatus } from '../../../webview/store/viewStatus';
import { snapshot, threadId } from './conversationFixtures';

const context = { kind: 'sidebar', restricted: false } as const;
const shown: HostMessage = { type: 'snapshot', seq: 0, snapshot: snapshot(), context };
const empty: HostMessage = { type: 'empty', context };
const failed = (reason: string): HostMessage => ({ type: 'serverFailed', reason, context });
const run = (status: ViewStatus, ...messages: HostMessage[]) => messages.reduce(reduceViewStatus, status);

describe('webview view status (pure)', () => {
  it('loads until the host answers only when a thread is expected; else opens on the start view', () => {
    assert.deepEqual(initialViewStatus(true), { phase: 'loading', serverFailure: null });
    assert.deepEqual(initialViewStatus(false), { phase: 'start', serverFailure: null });
    assert.deepEqual(run(initialViewStatus(true), shown), { phase: 'thread', serverFailure: null });
    assert.deepEqual(run(initialViewStatus(true), empty), { phase: 'start', serverFailure: null });
  });

  it('says the server failed over the start view, or over the thread it keeps showing', () => {
    assert.deepEqual(run(initialViewStatus(true), failed('exited with code 2')), {
      phase: 'start',
      serverFailure: 'exited with code 2',
    });
    assert.deepEqual(run(initialViewStatus(false), shown, failed('killed')), {
      phase: 'thread',
      serverFailure: 'killed',
    });
  });

  it('clears the failure when the view is sent afresh after a restart', () => {
    assert.deepEqual(run(initialViewStatus(false), shown, failed('killed'), shown), {
      phase: 'thread',
      serverFailure: null,
    });
    assert.deepEqual(run(initialViewStatus(false), failed('killed'), empty), {
      phase: 'start',
      serverFailure: null,
    });
  });

  it('keeps its identity for messages that change nothing it shows', () => {
    const status = run(initialViewStatus(false), shown);
    assert.equal(reduceViewStatus(status, shown), status, 'another snapshot: still the thread');
    assert.equal(reduceViewStatus(status, { type: 'focusComposer' }), status);
    assert.equal(reduceViewStatus(status, { type: 'prompts', threadId, prompts: [] }), status);
    const down = reduceViewStatus(status, failed('x'));
    assert.equal(reduceViewStatus(down, failed('x')), down, 'the same failure twice');
  });
});
