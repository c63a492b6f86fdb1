// Search Threads in the installed .vsix, driven as a user: a word said only in the middle of a long
// thread is found as it is typed, the matching line is the result's description, and picking it
// opens the conversation scrolled to the turn that said it.
import * as assert from 'node:assert/strict';
import { writeRollout, type FixtureTurn } from '../support/rollouts';
import { useWorkbench } from '../support/harness/uiFixture';
import { runCommand, screenshot } from '../support/harness/workbench';
import { conversation } from './conversationPage';

describe('searching threads (installed .vsix)', function () {
  this.timeout(120_000);
  const wb = useWorkbench();

  // Written before the extension starts its server (at the first test), which indexes them then.
  before(() => {
    const turns: FixtureTurn[] = Array.from({ length: 30 }, (_, i) => ({
      id: `turn-${i}`,
      userText: `What does step ${i} of the build do?`,
      answer: `Step ${i} compiles the sources and copies the assets.\n\n${'More detail about it. '.repeat(20)}`,
    }));
    turns[12] = {
      ...turns[12]!,
      answer: 'Found it: the zanzibar cache was stale, so the build reused old assets.',
    };
    writeRollout(wb.home, { name: 'Build investigation', cwd: wb.home, turns });
    writeRollout(wb.home, {
      name: 'Something else',
      cwd: wb.home,
      turns: [{ id: 'x', userText: 'hello', answer: 'hi' }],
    });
  });

  it('finds a word from the middle of a thread as you type and opens the thread at that turn', async () => {
    await runCommand(wb.page, 'Threadline: Search Threads…');
    const input = wb.page.locator('.quick-input-widget input[placeholder^="Type to search names"]');
    const result = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Build investigation' });
    // The picker lists recent threads first; then the user types.
    await result.waitFor({ timeout: 30_000 });
    await input.pressSequentially('zanzib', { delay: 50 });
    await result.getByText(/the zanzibar cache was stale/).waitFor({ timeout: 15_000 });
    assert.equal(
      await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Something else' }).count(),
      0,
      'only the matching thread is listed',
    );
    await screenshot(wb.page, 'thread-search-results');
    await input.press('Enter');

    const frame = conversation(wb.page);
    const turn = frame.locator('[data-turn-id="turn-12"]');
    await turn.waitFor({ timeout: 30_000 });
    await frame.getByText(/the zanzibar cache was stale/).waitFor({ timeout: 15_000 });
    // Scrolled there: the matching turn is in view, the newest one is not.
    assert.ok(await turn.isVisible());
    assert.equal(await frame.locator('[data-turn-id="turn-29"]').isVisible(), false);
    await screenshot(wb.page, 'thread-search-opened');
  });
});
