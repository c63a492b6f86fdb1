// What Retry and Edit and resend act on, read from conversation states built by the real reducer: the
// last turn only, once ended; Retry only after a failure or an interruption, with the turn's first
// message (not a steered one); nothing for a turn that has no message (a revert, a compaction).
import * as assert from 'node:assert/strict';
import type { ThreadItem } from '../../../server/protocol/items';
import type { UserInput } from '../../../server/protocol/userInput';
import { fromSnapshot } from '../../../webview/store/reducer';
import { editableMessage, retryInput } from '../../../webview/store/turnActions';
import { agentMessage, snapshot, turn, userMessage } from './conversationFixtures';

const input: UserInput[] = [
  { type: 'text', text: 'Fix the build' },
  { type: 'localImage', path: '/tmp/shot.png' },
];
const withImage: ThreadItem = { type: 'userMessage', id: 'u2', content: input };

describe('webview turn actions (pure)', () => {
  it('retries a failed or interrupted last turn with the input it was started with', () => {
    for (const status of ['failed', 'interrupted'] as const) {
      const state = fromSnapshot(
        snapshot([
          turn('t1', [userMessage('u1', 'first')]),
          turn('t2', [withImage, userMessage('u3', 'steered in'), agentMessage('a', 'no')], status),
        ]),
      );
      assert.deepEqual(retryInput(state, 't2'), input);
      assert.equal(retryInput(state, 't1'), null, 'not an earlier turn');
    }
  });

  it('offers no retry for a completed or running turn, or one without a message', () => {
    for (const status of ['completed', 'inProgress'] as const) {
      const state = fromSnapshot(snapshot([turn('t1', [userMessage('u1', 'hi')], status)]));
      assert.equal(retryInput(state, 't1'), null, status);
    }
    const revert = fromSnapshot(snapshot([turn('t1', [agentMessage('a', 'x')], 'failed')]));
    assert.equal(retryInput(revert, 't1'), null);
  });

  it('edits the last message once its turn has ended, its words only', () => {
    const state = fromSnapshot(
      snapshot([turn('t1', [userMessage('u1', 'first')]), turn('t2', [withImage], 'failed')]),
    );
    assert.deepEqual(editableMessage(state), { turnId: 't2', itemKey: 't2/u2', text: 'Fix the build' });
    const running = fromSnapshot(snapshot([turn('t1', [userMessage('u1', 'hi')], 'inProgress')]));
    assert.equal(editableMessage(running), null);
    assert.equal(editableMessage(fromSnapshot(snapshot([]))), null);
    const imageOnly = fromSnapshot(
      snapshot([
        turn('t1', [{ type: 'userMessage', id: 'u', content: [{ type: 'localImage', path: '/a.png' }] }]),
      ]),
    );
    assert.equal(editableMessage(imageOnly), null, 'nothing in words to edit');
  });
});
