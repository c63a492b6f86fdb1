// Restricted Mode in the composer (jsdom): the notice says what the agent may do and offers to manage
// trust; the approval and sandbox picker is gone while the host fixes the policy, and back once trusted.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import type { ViewContext } from '../../../webview/messages';
import { snapshot, turn, userMessage } from './conversationFixtures';
import { useAppDom } from './dom';
import type { Page } from './page';

describe('webview Restricted Mode notice (jsdom)', () => {
  const app = useAppDom();
  const shield = (page: Page) => page.all('[aria-label="Approvals and sandbox"]');

  async function show(page: Page, seq: number, restricted: boolean) {
    const context: ViewContext = { kind: 'sidebar', restricted };
    await page.receive({
      type: 'snapshot',
      seq,
      snapshot: snapshot([turn('t1', [userMessage('u1', 'hi')])]),
      context,
    });
  }

  it('shows the notice without the policy picker, and drops it when the folder is trusted', async () => {
    const page = new app.Page({ listModels: () => ({ models: [] }) });
    await page.render(createElement(app.App));
    await show(page, 0, true);
    const notice = page.find('.tl-restricted');
    assert.match(notice.textContent ?? '', /Restricted Mode: the agent asks before any command/);
    assert.equal(shield(page).length, 0);
    await page.act(() => (notice.querySelector('button') as HTMLButtonElement).click());
    assert.deepEqual(page.posted.at(-1), { type: 'manageTrust' });

    await show(page, 0, false);
    assert.equal(page.all('.tl-restricted').length, 0);
    assert.equal(shield(page).length, 1);
    await page.unmount();
  });
});
