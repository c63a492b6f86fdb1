// How the apps that name an MCP server decide which of its tools are offered and how calls are
// approved, read from app tables as config.toml writes them.
import { strict as assert } from 'node:assert';
import { appDefinition, type AppDefaults } from '../../../../server/apps/appConfig';
import { appToolPolicy, type ToolHints } from '../../../../server/apps/appToolPolicy';

const defaults: AppDefaults = {
  enabled: true,
  destructiveEnabled: true,
  openWorldEnabled: true,
  toolsApprovalMode: null,
};
const plain: ToolHints = { readOnly: false, destructive: false, openWorld: false };

describe('app tool policy', () => {
  it('leaves the tools of a server no app names to the usual rule', () => {
    const policy = appToolPolicy([appDefinition('a', { mcp_server: 'other' }, null)], defaults);
    assert.deepEqual(policy('db', 'x', plain), { offered: true, approval: 'auto' });
  });

  it("takes the tool's own mode, then the app's default, then [apps._default]'s", () => {
    const app = appDefinition(
      'a',
      { mcp_server: 'db', default_tools_approval_mode: 'writes', tools: { x: { approval_mode: 'approve' } } },
      null,
    );
    assert.equal(appToolPolicy([app], defaults)('db', 'x', plain).approval, 'approve');
    assert.equal(appToolPolicy([app], defaults)('db', 'y', plain).approval, 'writes');
    const bare = appDefinition('b', { mcp_server: 'db' }, null);
    assert.equal(
      appToolPolicy([bare], { ...defaults, toolsApprovalMode: 'prompt' })('db', 'y', plain).approval,
      'prompt',
    );
  });

  it('offers a tool if one of several apps does, asking as the most cautious of those', () => {
    const open = appDefinition('a', { mcp_server: 'db', default_tools_approval_mode: 'approve' }, null);
    const careful = appDefinition('b', { mcp_server: 'db', default_tools_approval_mode: 'prompt' }, null);
    const off = appDefinition(
      'c',
      { mcp_server: 'db', enabled: false, default_tools_approval_mode: 'auto' },
      null,
    );
    assert.deepEqual(appToolPolicy([open, careful, off], defaults)('db', 'x', plain), {
      offered: true,
      approval: 'prompt',
    });
    assert.equal(appToolPolicy([off], defaults)('db', 'x', plain).offered, false);
  });

  it('hides destructive and open-world tools where not allowed, and every tool when apps are off', () => {
    const app = appDefinition('a', { mcp_server: 'db', open_world_enabled: false }, null);
    const policy = appToolPolicy([app], { ...defaults, destructiveEnabled: false });
    assert.equal(policy('db', 'x', { ...plain, destructive: true }).offered, false);
    assert.equal(policy('db', 'x', { ...plain, openWorld: true }).offered, false);
    assert.equal(policy('db', 'x', { ...plain, readOnly: true }).offered, true);
    assert.equal(appToolPolicy([app], { ...defaults, enabled: false })('db', 'x', plain).offered, false);
    const toolsOff = appDefinition(
      'b',
      { mcp_server: 'db', default_tools_enabled: false, tools: { y: { enabled: true } } },
      null,
    );
    assert.equal(appToolPolicy([toolsOff], defaults)('db', 'x', plain).offered, false);
    assert.equal(appToolPolicy([toolsOff], defaults)('db', 'y', plain).offered, true);
  });
});
