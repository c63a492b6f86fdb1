// OAuth sign-in to an MCP server over streamable HTTP, through the real server process and a real
// authorization server on 127.0.0.1 (the SDK's, auto-approving): the authorization URL, the local
// callback, tokens stored owner-only and never logged or sent, and a forged callback refused.
import { strict as assert } from 'node:assert';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServerStatus, McpToolCallItem } from '../../server/protocol/mcp';
import { startOAuthMcpServer } from '../fixtures/mcpServer/oauth';
import type { HttpFixture } from '../fixtures/mcpServer/http';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, completedItems, startThread, startTurn, turnCompleted } from '../support/agent';
import { ServerProcess } from '../support/serverProcess';

describe('MCP servers: OAuth sign-in', function () {
  this.timeout(40_000);
  const model = useModelServer();
  let server: ServerProcess | undefined;
  let oauth: HttpFixture | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await oauth?.close();
    oauth = undefined;
  });

  async function start() {
    oauth = await startOAuthMcpServer();
    const home = agentHome('responses', model.baseUrl);
    appendFileSync(join(home, 'config.toml'), `\n[mcp_servers.secure]\nurl = "${oauth.url}"\n`);
    server = ServerProcess.start({ home, env: agentEnv });
    await server.initialize({ experimentalApi: true });
    return server;
  }

  const status = async (s: ServerProcess) =>
    (await s.call<{ data: McpServerStatus[] }>('mcpServerStatus/list', {})).data[0]!;

  it('signs in through the browser flow, stores the tokens owner-only and then connects', async () => {
    const s = await start();
    const before = await status(s);
    assert.equal(before.runtimeStatus, 'authenticationRequired');
    assert.equal(before.authStatus, 'notLoggedIn');
    assert.match(before.toolsError!, /sign in/);

    const { authorizationUrl, loginId } = await s.call<{ authorizationUrl: string; loginId: string }>(
      'mcpServer/oauth/login',
      { name: 'secure' },
    );
    const url = new URL(authorizationUrl);
    assert.equal(url.origin, new URL(oauth!.url).origin);
    const redirect = new URL(url.searchParams.get('redirect_uri')!);
    assert.equal(redirect.hostname, '127.0.0.1', 'the callback listens on loopback only');
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');

    // A callback without the state of this sign-in is refused and changes nothing.
    const forged = await fetch(`${redirect.origin}/callback?code=stolen&state=wrong`);
    assert.equal(forged.status, 400);

    // The browser: the authorization server approves at once and redirects to the callback.
    const page = await fetch(authorizationUrl);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Signed in to secure/);
    const done = await s.notification('mcpServer/oauthLogin/completed');
    assert.deepEqual(done.params, { name: 'secure', success: true, error: null, loginId });

    const authFile = join(s.home, 'auth.json');
    assert.equal(statSync(authFile).mode & 0o777, 0o600);
    const stored = JSON.parse(readFileSync(authFile, 'utf8')) as {
      mcpServers: { secure: { tokens: { access_token: string } } };
    };
    const token = stored.mcpServers.secure.tokens.access_token;
    assert.ok(token.length > 10);

    const after = await status(s);
    assert.equal(after.runtimeStatus, 'connected');
    assert.equal(after.authStatus, 'oAuth');
    assert.ok(after.tools.echo);

    model.script(
      { output: [{ toolCall: { name: 'mcp__secure__echo', arguments: '{"text":"signed"}', callId: 'c1' } }] },
      { output: [{ text: 'ok' }] },
    );
    const turn = await startTurn(s, await startThread(s), 'go');
    await turnCompleted(s, turn.id, 30_000);
    const item = completedItems(s, turn.id).find((i) => i.type === 'mcpToolCall') as McpToolCallItem;
    assert.equal(item.status, 'completed');

    assert.ok(!s.stderr.includes(token), 'the access token is not logged');
    assert.ok(!JSON.stringify(s.received).includes(token), 'the access token is not sent to clients');
  });

  it('answers a sign-in for a server that is not OAuth, or not configured, with a clear error', async () => {
    const s = await start();
    const unknown = await s.request('mcpServer/oauth/login', { name: 'nope' });
    assert.equal(unknown.error?.code, -32602);
    const badParams = await s.request('mcpServer/oauth/login', { name: 'secure', timeoutSecs: 0 });
    assert.equal(badParams.error?.code, -32602);
    assert.ok(s.alive);
  });
});
