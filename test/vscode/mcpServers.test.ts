// The MCP Servers view inside the real extension host, against the real server: a config edit and
// Reload show a working stdio server with its tools and a crashing one with its error and the way to
// the log; removing them again empties the view.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ServerNode } from '../../extension/mcp/mcpServerNodes';
import { repoRoot } from '../support/paths';
import { threadlineApi } from './extensionApi';

const fixture = join(repoRoot, 'test', 'fixtures', 'mcpServer', 'stdio.ts');

function serverTable(name: string, mode: string): string {
  return [
    `[mcp_servers.${name}]`,
    `command = ${JSON.stringify(process.execPath)}`,
    `args = ${JSON.stringify(['--import', 'tsx', fixture, name, mode])}`,
    `cwd = ${JSON.stringify(repoRoot)}`,
    'startup_timeout_sec = 20',
    '',
  ].join('\n');
}

describe('the MCP Servers view', () => {
  const config = join(process.env.THREADLINE_HOME!, 'config.toml');
  let original = '';

  before(() => {
    try {
      original = readFileSync(config, 'utf8');
    } catch {
      original = '';
    }
  });
  after(async () => {
    writeFileSync(config, original);
    await vscode.commands.executeCommand('threadline.mcp.reload');
  });

  it('Reload shows each server with its state, tools and errors', async function () {
    this.timeout(60_000);
    writeFileSync(
      config,
      `${original}\n${serverTable('notes', 'normal')}${serverTable('broken', 'crash-on-start')}`,
    );
    const nodes = await vscode.commands.executeCommand<ServerNode[]>('threadline.mcp.reload');
    assert.deepEqual(
      nodes.map((n) => [n.name, n.look, n.description]),
      [
        ['notes', 'connected', '8 tools'],
        ['broken', 'failed', 'failed'],
      ],
    );
    const { mcp } = await threadlineApi();
    const [notes, broken] = (await mcp.getChildren()) as ServerNode[];
    const tools = await mcp.getChildren(notes);
    const drop = tools.find((t) => t.kind === 'tool' && t.name === 'drop_table')!;
    assert.equal(mcp.getTreeItem(drop).description, 'asks first · Deletes a table.');
    assert.equal(mcp.getTreeItem(notes!).tooltip, 'notes: 8 tools\nnotes 1.2.3');

    const why = await mcp.getChildren(broken);
    assert.match(mcp.getTreeItem(why[0]!).label as string, /exited|closed|failed/i);
    assert.equal(mcp.getTreeItem(why[1]!).command?.command, 'threadline.showLog');

    await vscode.commands.executeCommand('workbench.view.extension.threadline');
    await mcp.view.reveal(notes!, { expand: true, focus: false });
    assert.ok(mcp.view.visible);
  });

  it('with no servers configured the view is empty (its welcome text explains what to add)', async () => {
    writeFileSync(config, original);
    const nodes = await vscode.commands.executeCommand<ServerNode[]>('threadline.mcp.reload');
    assert.deepEqual(nodes, []);
  });
});
