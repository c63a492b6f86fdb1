// The MCP Servers view's nodes from status lists as our server and the reference one send them.
import { strict as assert } from 'node:assert';
import { childrenOf, serverNode } from '../../../../extension/mcp/mcpServerNodes';
import type { McpServerStatus } from '../../../../server/protocol/mcp';

const base: McpServerStatus = {
  name: 'db',
  authStatus: 'unsupported',
  tools: {},
  resources: [],
  resourceTemplates: [],
};
const tool = (name: string, annotations?: unknown) => ({
  name,
  inputSchema: {},
  description: `${name} it`,
  annotations,
});

describe('MCP Servers view nodes', () => {
  it('a connected server counts its tools and lists them, destructive ones marked', () => {
    const node = serverNode({
      ...base,
      runtimeStatus: 'connected',
      tools: { query: tool('query'), drop: tool('drop', { destructiveHint: true }) },
      serverInfo: { name: 'db-server', version: '2.0.0', title: null },
    });
    assert.equal(node.look, 'connected');
    assert.equal(node.description, '2 tools');
    assert.match(node.tooltip, /db-server 2\.0\.0/);
    assert.deepEqual(
      childrenOf(node).map((c) => (c.kind === 'tool' ? [c.name, c.destructive] : c.kind)),
      [
        ['query', false],
        ['drop', true],
      ],
    );
  });

  it('a failed server shows its error and the way to the log', () => {
    const node = serverNode({ ...base, runtimeStatus: 'failed', toolsError: 'did not start within 2 s' });
    assert.equal(node.look, 'failed');
    assert.deepEqual(
      childrenOf(node).map((c) => (c.kind === 'message' ? [c.text, c.action] : c.kind)),
      [
        ['did not start within 2 s', null],
        ['Show the log (the server’s stderr is there)', 'showLog'],
      ],
    );
  });

  it('a server that needs a sign-in offers it', () => {
    const node = serverNode({ ...base, authStatus: 'notLoggedIn', runtimeStatus: 'authenticationRequired' });
    assert.equal(node.look, 'signIn');
    assert.deepEqual(childrenOf(node), [
      { kind: 'message', server: 'db', text: 'Sign in to use its tools', action: 'signIn' },
    ]);
  });

  it('without a runtime status (the reference server), judges by the error and the auth status', () => {
    assert.equal(serverNode({ ...base, tools: { q: tool('q') } }).look, 'connected');
    assert.equal(serverNode({ ...base, toolsError: 'boom' }).look, 'failed');
    assert.equal(serverNode({ ...base, authStatus: 'notLoggedIn' }).look, 'signIn');
    assert.equal(serverNode({ ...base, runtimeStatus: 'disabled' }).look, 'disabled');
  });
});
