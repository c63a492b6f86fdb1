import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../support/paths';
import { tabIcon, tabLook, tabTitle } from '../../../../extension/conversation/tabState';

describe('an editor tab’s state', () => {
  it('follows the thread’s status, a held prompt meaning waiting whatever the status says yet', () => {
    assert.equal(tabLook(undefined, false), 'idle', 'before the first snapshot');
    assert.equal(tabLook({ type: 'idle' }, false), 'idle');
    assert.equal(tabLook({ type: 'active', activeFlags: [] }, false), 'running');
    assert.equal(tabLook({ type: 'active', activeFlags: ['waitingOnApproval'] }, false), 'waiting');
    assert.equal(tabLook({ type: 'active', activeFlags: [] }, true), 'waiting');
    assert.equal(tabLook({ type: 'idle' }, true), 'waiting', 'the prompt arrived before the status');
    assert.equal(tabLook({ type: 'systemError' }, false), 'error');
  });

  it('says the state before the title, nothing at rest', () => {
    assert.equal(tabTitle('Fix the build', 'running'), 'Running · Fix the build');
    assert.equal(tabTitle('Fix the build', 'waiting'), 'Waiting · Fix the build');
    assert.equal(tabTitle('Fix the build', 'idle'), 'Fix the build');
  });

  it('shows a colored icon for a state and the product’s mark per theme at rest', () => {
    assert.deepEqual(tabIcon('waiting'), { light: 'waiting.svg', dark: 'waiting.svg' });
    assert.deepEqual(tabIcon('idle'), { light: 'idle-light.svg', dark: 'idle-dark.svg' });
    for (const look of ['running', 'waiting', 'error', 'idle'] as const)
      for (const file of Object.values(tabIcon(look)))
        assert.ok(existsSync(join(repoRoot, 'media', 'tab', file)), `media/tab/${file} is shipped`);
  });
});
