// app/read and app/installed through the real server: config.toml's apps over the stdio MCP fixture,
// read by id (duplicates once, unknown ids named), with the tools of their server when asked (the
// app's own tool switches applied), and each app's runtime state before and after its server runs.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stdioServer } from '../support/mcpFixture';
import { tempDir, useServers } from '../support/serverProcess';

const CONFIG = `
[apps.fixture]
name = "Fixture"
description = "The test server"
mcp_server = "fx"

[apps.fixture.tools.note]
enabled = false

[apps.off]
name = "Off"
mcp_server = "nowhere"
enabled = false

${stdioServer('fx')}`;

interface Tool {
  name: string;
  isEnabled: boolean;
  isReadOnly: boolean;
  disabledReason: string | null;
}
interface Read {
  apps: { id: string; name: string; description: string | null; toolSummaries: Tool[] | null }[];
  missingAppIds: string[];
}

describe('app/read and app/installed', () => {
  const start = useServers();

  it('reads apps by id, with their tools on request, and says which can be called', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.toml'), CONFIG);
    const server = await start(home);

    const installed = async (forceRefresh?: boolean) =>
      (
        await server.call<{ apps: { id: string; enabled: boolean; callable: boolean }[] }>(
          'app/installed',
          forceRefresh === undefined ? {} : { forceRefresh },
        )
      ).apps.map((a) => [a.id, a.enabled, a.callable]);
    assert.deepEqual(await installed(), [
      ['fixture', true, false],
      ['off', false, false],
    ]);

    const plain = await server.call<Read>('app/read', { appIds: ['fixture', 'nope', 'fixture'] });
    assert.deepEqual(
      plain.apps.map((a) => [a.id, a.name, a.description, a.toolSummaries]),
      [['fixture', 'Fixture', 'The test server', null]],
    );
    assert.deepEqual(plain.missingAppIds, ['nope']);

    const withTools = await server.call<Read>('app/read', { appIds: ['fixture', 'off'], includeTools: true });
    const tools = new Map(withTools.apps[0]!.toolSummaries!.map((t) => [t.name, t]));
    assert.deepEqual(
      [tools.get('echo')!.isEnabled, tools.get('echo')!.isReadOnly, tools.get('echo')!.disabledReason],
      [true, true, null],
    );
    assert.equal(tools.get('note')!.isEnabled, false);
    assert.match(tools.get('note')!.disabledReason!, /does not offer this tool/);
    assert.equal(withTools.apps[1]!.toolSummaries, null, 'its server is not running');

    assert.deepEqual(await installed(true), [
      ['fixture', true, true],
      ['off', false, false],
    ]);
  });
});
