// app/list and `app://` mentions through the real server: apps come from config.toml's
// `[apps.<id>]` tables (none configured: an empty list), paged by cursor; a mention of one tells the
// model which app and MCP server the user means, and a mention of an unknown app is refused.
import { strict as assert } from 'node:assert';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppInfo } from '../../server/protocol/appMethods';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, runTurn, startThread } from '../support/agent';
import { tempDir, useServers } from '../support/serverProcess';

const APPS = `
[apps._default]
enabled = true

[apps.issues]
name = "Issue Tracker"
description = "Tickets of the team"
mcp_server = "tracker"
default_tools_approval_mode = "prompt"

[apps.issues.tools."tickets/delete"]
enabled = false
approval_mode = "approve"

[apps.wiki]
name = "Wiki"
mcp_server = "nowhere"
enabled = false

[apps.bad]
name = 42

[mcp_servers.tracker]
command = "true"
`;

describe('apps', () => {
  const model = useModelServer();
  const start = useServers();
  /** A home whose config.toml ends with `extra` (after the provider's tables). */
  const serve = (extra = '') => {
    const home = agentHome('responses', model.baseUrl);
    appendFileSync(join(home, 'config.toml'), extra);
    return start(home, 'threadline_vscode', agentEnv);
  };

  interface Page {
    data: AppInfo[];
    nextCursor: string | null;
  }

  it('lists nothing when no app is configured', async () => {
    const server = await serve();
    assert.deepEqual(await server.call('app/list', {}), { data: [], nextCursor: null });
  });

  it('lists the configured apps, paged, with their state', async () => {
    const server = await serve(APPS);
    const all = await server.call<Page>('app/list', { limit: 10 });
    assert.deepEqual(
      all.data.map((a) => [a.id, a.name, a.isEnabled, a.isAccessible]),
      [
        ['bad', 'bad', true, false],
        ['issues', 'Issue Tracker', true, true],
        ['wiki', 'Wiki', false, false],
      ],
    );
    const issues = all.data[1]!;
    assert.equal(issues.description, 'Tickets of the team');
    assert.deepEqual(issues.pluginDisplayNames, []);
    assert.equal(issues.installUrl, null);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await server.call<Page>('app/list', { limit: 1, cursor });
      seen.push(...page.data.map((a) => a.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ['bad', 'issues', 'wiki']);
    const bad = await server.request('app/list', { cursor: 'nope' });
    assert.equal(bad.error?.code, -32602);
  });

  it('tells the model about a mentioned app, and refuses unknown or disabled ones', async () => {
    model.script({ output: [{ text: 'Looking.' }] });
    const server = await serve(APPS);
    const threadId = await startThread(server, tempDir('threadline-cwd-'));
    const done = await runTurn(server, threadId, [
      { type: 'text', text: '$issue-tracker list open tickets' },
      { type: 'mention', name: 'Issue Tracker', path: 'app://issues' },
    ]);
    assert.equal(done.status, 'completed');
    assert.match(
      JSON.stringify(model.requests[0]!.body.input),
      /The user means the app \\"Issue Tracker\\" \(app:\/\/issues\); its tools come from the MCP server \\"tracker\\"/,
    );
    for (const [path, reason] of [
      ['app://ghost', /no app ghost is configured/],
      ['app://wiki', /the app Wiki is turned off/],
    ] as const) {
      const refused = await server.request('turn/start', {
        threadId,
        input: [{ type: 'mention', name: 'x', path }],
      });
      assert.equal(refused.error?.code, -32602);
      assert.match(refused.error!.message, reason);
    }
    assert.equal(model.requests.length, 1, 'a refused turn sends nothing');
  });

  it('sends app/list/updated after a config write that changes the apps, and after a reload', async () => {
    const server = await serve(APPS);
    const updates = () => server.notifications('app/list/updated');
    await server.call('config/value/write', {
      keyPath: 'model_reasoning_effort',
      value: 'high',
      mergeStrategy: 'replace',
    });
    await server.call('config/value/write', {
      keyPath: 'apps.wiki.enabled',
      value: true,
      mergeStrategy: 'replace',
    });
    const written = await server.notification('app/list/updated');
    assert.equal(updates().length, 1, 'the write that left the apps as they were sent nothing');
    const wiki = (written.params as { data: AppInfo[] }).data.find((app) => app.id === 'wiki')!;
    assert.equal(wiki.isEnabled, true);

    await server.call('config/batchWrite', {
      edits: [
        { keyPath: 'apps.notes', value: { name: 'Notes', mcp_server: 'tracker' }, mergeStrategy: 'upsert' },
      ],
    });
    await server.call('config/mcpServer/reload', {});
    await server.next((m) => m.method === 'app/list/updated' && updates().length === 3);
    const [, batch, reload] = updates().map((m) =>
      (m.params as { data: AppInfo[] }).data.map((app) => app.id),
    );
    assert.deepEqual(batch, ['bad', 'issues', 'notes', 'wiki']);
    assert.deepEqual(reload, batch);
    server.assertSchemaClean();
  });
});
