// The one reading of a thread's status that the Threads tree and the conversation's header share.
import * as assert from 'node:assert/strict';
import { statusLook, statusText } from '../../../../webview/common/threadStatus';

describe('thread status look (shared by the tree and the header)', () => {
  it('reads the server status, and waiting whenever a prompt of the thread is pending', () => {
    assert.equal(statusLook({ type: 'active', activeFlags: [] }), 'running');
    assert.equal(statusLook({ type: 'active', activeFlags: ['waitingOnApproval'] }), 'waiting');
    assert.equal(statusLook({ type: 'idle' }), 'idle');
    assert.equal(statusLook({ type: 'systemError' }), 'error');
    assert.equal(statusLook({ type: 'active', activeFlags: [] }, true), 'waiting');
    assert.equal(statusLook({ type: 'idle' }, true), 'waiting', 'the prompt is known before the status');
    assert.equal(statusText.running, 'running');
    assert.equal(statusText.idle, '');
  });
});
