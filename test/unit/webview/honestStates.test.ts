// The view's states in a jsdom page, through the App as the webview mounts it: loading while a thread it
// showed before is on its way (and the page's skeleton removed once it is there), the server's failure
// with Restart and Show Log, a new thread's workspace and example prompts that fill the composer, the
// thread's status in the header, Retry on a failed turn and Edit and resend on the last message.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import type { UserInput } from '../../../server/protocol/userInput';
import type * as Skeleton from '../../../webview/common/loadingSkeleton';
import type { HostMessage } from '../../../webview/messages';
import type * as Loading from '../../../webview/states/loading';
import { n, deltas, snapshot, threadId, turn, userMessage } from './conversationFixtures';
import { afterDom, useAppDom } from './dom';
import type { Page as PageType } from './page';

const context = { kind: 'sidebar', restricted: false } as const;
const failure: HostMessage = {
  type: 'serverFailed',
  reason: 'The server exited with code 2 repeatedly; it was not restarted. Its last words: bad config',
  context,
};

describe('webview honest states (jsdom)', () => {
  const app = useAppDom();

  async function open(saved = {}) {
    const page = new app.Page(
      {
        listModels: () => ({ models: [] }),
        checkSetup: () => ({ ready: true }),
        startTurn: () => ({ turnId: 't9' }),
        resendEdited: () => ({ turnId: 't9' }),
      },
      saved,
    );
    await page.render(createElement(app.App));
    return page;
  }
  const buttonNamed = (page: PageType, name: RegExp) => {
    const found = page
      .all('button')
      .find((b) => name.test(b.textContent ?? b.getAttribute('aria-label') ?? ''));
    if (!found) throw new Error(`no button ${name} in:\n${page.container.innerHTML.slice(0, 2000)}`);
    return found;
  };
  const input = (page: PageType) => page.find('textarea') as HTMLTextAreaElement;

  it('shows nothing but the skeleton while a thread it showed before is on its way, then removes it', async () => {
    const { loadingSkeletonHtml, loadingElementId } = afterDom<typeof Skeleton>(
      '../../../webview/common/loadingSkeleton',
    );
    const { removeSkeletonWhenLoaded } = afterDom<typeof Loading>('../../../webview/states/loading');
    document.body.insertAdjacentHTML('afterbegin', loadingSkeletonHtml);
    const page = await open({ threadId });
    removeSkeletonWhenLoaded(page.store, document);
    assert.equal(page.container.innerHTML, '', 'no start view flashes before the thread');
    assert.ok(document.getElementById(loadingElementId), 'the skeleton stays');
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [userMessage('u1', 'hi')])]),
      context,
    });
    assert.equal(document.getElementById(loadingElementId), null);
    assert.ok(page.find('.tl-header'));
    await page.unmount();
  });

  it('says why the server stopped, with Restart and Show Log, and goes once the view is sent again', async () => {
    const page = await open();
    await page.receive(failure);
    const card = page.find('[role="alert"]');
    assert.match(card.textContent ?? '', /Threadline's server stopped.*exited with code 2.*bad config/s);
    assert.equal(page.all('textarea').length, 0, 'no composer pretends a message could be sent');
    await page.act(() => buttonNamed(page, /Show Log/).click());
    await page.act(() => buttonNamed(page, /Restart/).click());
    assert.deepEqual(page.posted.slice(-2), [{ type: 'showLog' }, { type: 'restartServer' }]);
    assert.ok(buttonNamed(page, /Restarting/).hasAttribute('disabled'), 'one restart at a time');
    await page.receive({ type: 'empty', context });
    assert.equal(page.all('.tl-server-failed').length, 0);
    assert.ok(input(page));
    await page.unmount();
  });

  it('keeps a shown thread readable when the server stops, the failure in the composer’s place', async () => {
    const page = await open();
    const failed = turn('t1', [userMessage('u1', 'hi')], 'failed');
    await page.receive({ type: 'snapshot', seq: 0, snapshot: snapshot([failed]), context });
    await page.until(() => page.all('[aria-label="Edit and resend"]').length === 1);
    assert.equal(buttonNamed(page, /Retry/).textContent?.trim(), 'Retry');
    await page.receive(failure);
    assert.ok(page.find('.tl-header'));
    assert.equal(page.all('.tl-server-failed').length, 1);
    assert.equal(page.all('textarea').length, 0);
    // Nothing offers to send while there is no server (nor a composer to fill).
    assert.equal(page.all('[aria-label="Edit and resend"]').length, 0);
    assert.equal(page.all('.tl-retry').length, 0);
    await page.unmount();
  });

  it('starts a thread with the workspace named, three examples that fill the composer, and a worktree entry', async () => {
    const page = await open();
    await page.receive({
      type: 'empty',
      context,
      start: {
        workspace: 'demo-app',
        recent: [],
        defaults: { model: 'm', effort: null, approvalPolicy: '', sandbox: '' },
      },
    });
    assert.match(page.find('.tl-intro').textContent ?? '', /In demo-app\./);
    const examples = page.all('.tl-examples .tl-example');
    assert.equal(examples.length, 3);
    await page.act(() => examples[1]!.click());
    assert.equal(input(page).value, examples[1]!.textContent);
    assert.equal(document.activeElement, input(page));
    await page.act(() => page.find('.tl-start-worktree').click());
    assert.deepEqual(page.posted.at(-1), { type: 'runCommand', command: 'newThreadInWorktree' });
    await page.unmount();
  });

  it('shows the examples in a thread with no turns yet, named by its folder', async () => {
    const page = await open();
    await page.receive({ type: 'snapshot', seq: 0, snapshot: snapshot([]), context });
    assert.match(page.find('.tl-intro').textContent ?? '', /In demo\./);
    await page.act(() => page.all('.tl-example')[0]!.click());
    assert.match(input(page).value, /Explain how this project is organized/);
    await page.unmount();
  });

  it('names a new worktree thread by its branch, not by its folder (named by the thread id)', async () => {
    const page = await open();
    const fresh = snapshot([]);
    const thread = {
      ...fresh.thread,
      cwd: '/home/u/.threadline/worktrees/demo/01a21c32-841c',
      gitInfo: { branch: 'threadline/main-c6bbdb0a' },
    };
    await page.receive({ type: 'snapshot', seq: 0, snapshot: { ...fresh, thread }, context });
    assert.match(
      page.find('.tl-intro').textContent ?? '',
      /In threadline\/main-c6bbdb0a, a worktree of its own\./,
    );
    await page.unmount();
  });

  it('reads the thread’s status in the header as the tree does, waiting while a prompt is pending', async () => {
    const page = await open();
    await page.receive({ type: 'snapshot', seq: 0, snapshot: snapshot([]), context });
    const chip = () => page.find('[data-thread-status]');
    assert.equal(chip().dataset.threadStatus, 'idle');
    for (const m of deltas(1, [n('thread/status/changed', { status: { type: 'active', activeFlags: [] } })]))
      await page.receive(m);
    await page.frame();
    assert.equal(chip().dataset.threadStatus, 'running');
    assert.equal(chip().textContent?.trim(), 'running');
    await page.receive({
      type: 'prompts',
      threadId,
      prompts: [
        {
          key: '7',
          kind: 'commandExecution',
          threadId,
          turnId: 't1',
          itemId: 'c1',
          params: { threadId, turnId: 't1', itemId: 'c1', command: 'ls', cwd: '/work/demo' },
          receivedAt: 1,
        } as never,
      ],
    });
    assert.equal(chip().dataset.threadStatus, 'waiting');
    await page.unmount();
  });

  it('retries a failed last turn with the same input, as a new turn', async () => {
    const page = await open();
    const content: UserInput[] = [{ type: 'text', text: 'Fix the build' }];
    const failed = { ...turn('t1', [{ type: 'userMessage', id: 'u1', content }], 'failed') };
    failed.error = { message: 'upstream 500', codexErrorInfo: null, additionalDetails: null };
    await page.receive({ type: 'snapshot', seq: 0, snapshot: snapshot([failed]), context });
    await page.until(() => page.all('.tl-turn-error').length === 1);
    await page.act(() => buttonNamed(page, /Retry/).click());
    await page.until(() => page.requests('startTurn').length === 1);
    assert.deepEqual(page.requests('startTurn'), [{ threadId, input: content, overrides: {} }]);
    await page.unmount();
  });

  it('puts the last message back for editing; sending replaces that turn', async () => {
    const page = await open();
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([
        turn('t1', [userMessage('u1', 'first')]),
        turn('t2', [userMessage('u2', 'Fix teh build')]),
      ]),
      context,
    });
    await page.until(() => page.all('[aria-label="Edit and resend"]').length === 1);
    const row = page.find('[aria-label="Edit and resend"]').closest('[data-item-id]');
    assert.equal(row?.getAttribute('data-item-id'), 'u2', 'only on the last message');
    await page.act(() => page.find('[aria-label="Edit and resend"]').click());
    assert.equal(input(page).value, 'Fix teh build');
    assert.match(page.find('.tl-editing').textContent ?? '', /sending replaces that turn/);
    await page.type('Fix the build');
    await page.key({ key: 'Enter' });
    await page.until(() => page.requests('resendEdited').length === 1);
    assert.deepEqual(page.requests('resendEdited'), [
      { threadId, turnId: 't2', input: [{ type: 'text', text: 'Fix the build' }], overrides: {} },
    ]);
    assert.deepEqual(page.requests('startTurn'), []);
    await page.until(() => page.all('.tl-editing').length === 0);
    await page.unmount();
  });

  it('cancels an edit: the draft empties and the next send is an ordinary turn', async () => {
    const page = await open();
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [userMessage('u1', 'hi')])]),
      context,
    });
    await page.until(() => page.all('[aria-label="Edit and resend"]').length === 1);
    await page.act(() => page.find('[aria-label="Edit and resend"]').click());
    await page.act(() => buttonNamed(page, /^Cancel$/).click());
    assert.equal(input(page).value, '');
    await page.type('again');
    await page.key({ key: 'Enter' });
    await page.until(() => page.requests('startTurn').length === 1);
    assert.deepEqual(page.requests('resendEdited'), []);
    await page.unmount();
  });
});
