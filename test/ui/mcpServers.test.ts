// MCP servers in the installed .vsix, as a user meets them: a destructive MCP tool asks in the
// conversation, runs once accepted and shows its arguments and result; the MCP Servers view lists a
// working server with its tools and a failing one with its reason.
import * as assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { repoRoot } from '../support/paths';
import { useWorkbench } from '../support/harness/uiFixture';
import { activityBarItem, runCommand, screenshot, sideBarIdle, view } from '../support/harness/workbench';
import { newThread, send, useScriptedModel } from './conversationPage';

const fixture = join(repoRoot, 'test', 'fixtures', 'mcpServer', 'stdio.ts');
const server = (name: string, mode: string) =>
  [
    `[mcp_servers.${name}]`,
    `command = ${JSON.stringify(process.execPath)}`,
    `args = ${JSON.stringify(['--import', 'tsx', fixture, name, mode])}`,
    `cwd = ${JSON.stringify(repoRoot)}`,
    'startup_timeout_sec = 20',
    '',
  ].join('\n');

describe('MCP servers (installed .vsix)', function () {
  this.timeout(150_000);
  const wb = useWorkbench({ 'README.md': '# Demo\n' });
  const model = useModelServer();
  useScriptedModel(wb, () => model.baseUrl, { approval: 'on-request', sandbox: 'workspace-write' });
  // The title itself: the header's middle may hold the view's own action buttons.
  const paneHeader = (name: string) =>
    wb.page.locator('.part.sidebar .pane-header h3.title', { hasText: new RegExp(`^${name}$`) });
  before(() => {
    appendFileSync(
      join(wb.home, 'config.toml'),
      `\n${server('notes', 'normal')}${server('broken', 'crash-on-start')}`,
    );
  });

  it('a destructive tool asks in the conversation, then shows its arguments and result', async () => {
    model.script(
      {
        output: [
          {
            toolCall: { name: 'mcp__notes__drop_table', arguments: '{"table":"users"}', callId: 'call_drop' },
          },
        ],
      },
      { output: [{ text: 'The users table is gone.' }] },
    );
    const frame = await newThread(wb.page);
    // Room for the conversation, as a user would make it: the Threads view folded.
    await paneHeader('Threads').click();
    await send(frame, 'Drop the users table');
    const card = frame.locator('.tl-prompt');
    await card
      .getByText('Allow the MCP server "notes" to run drop_table', { exact: false })
      .waitFor({ timeout: 60_000 });
    await screenshot(wb.page, 'mcp-approval-card');
    // The same answers, labels and keys as a command's card; answered from the keyboard.
    assert.deepEqual(await card.locator('[role=toolbar] button').allTextContents(), [
      'Accept',
      'DeclineEsc',
      'Cancel turnC',
    ]);
    await card.focus();
    await wb.page.keyboard.press('Enter');

    await frame.getByText('The users table is gone.').waitFor({ timeout: 30_000 });
    const item = frame.locator('[data-item-type="mcpToolCall"]');
    assert.match((await item.textContent()) ?? '', /notes · drop_table/);
    await item.getByText('Result').click();
    await item.getByText('dropped users', { exact: false }).waitFor();
    await screenshot(wb.page, 'mcp-tool-call');
  });

  it('the MCP Servers view shows each server with its tools, or why it failed', async () => {
    await activityBarItem(wb.page, 'Threadline').click();
    await sideBarIdle(wb.page);
    await runCommand(wb.page, 'Threadline: Reload MCP Servers');
    // Room for the list, as a user would make it: the other two views folded, this one opened.
    for (const name of ['Threads', 'Conversation', 'MCP Servers']) await paneHeader(name).click();
    const pane = view(wb.page, 'MCP Servers');
    await pane.getByText('8 tools').waitFor({ timeout: 60_000 });
    // A failed server opens on its reason and the way to its stderr.
    await pane.getByText('failed', { exact: true }).waitFor({ timeout: 30_000 });
    await pane.getByText('Show the log', { exact: false }).waitFor();
    await pane.locator('.monaco-list-row', { hasText: '8 tools' }).click();
    await pane.getByText('drop_table').waitFor();
    await screenshot(wb.page, 'mcp-servers-view');
  });
});
