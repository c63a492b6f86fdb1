// [mcp_servers] as people write it: stdio and HTTP servers, Codex's timeout keys, and entries that
// are broken in every way we could think of, each left out with its own log line while the rest load.
import { strict as assert } from 'node:assert';
import { parse } from 'smol-toml';
import { describeTransport, mcpServersFrom } from '../../../../server/config/mcpServers';
import { createLogger } from '../../../../server/log';

function read(toml: string) {
  const lines: string[] = [];
  const servers = mcpServersFrom(
    parse(toml).mcp_servers,
    createLogger('trace', (line) => lines.push(line.trim())),
  );
  return { servers, warnings: lines.filter((l) => / WARN /.test(l)) };
}

describe('[mcp_servers] in config.toml', () => {
  it('reads stdio and streamable HTTP servers with their timeouts', () => {
    const { servers, warnings } = read(`
[mcp_servers.files]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "/srv/my data"]
env = { LOG = "1" }
cwd = "/srv"
startup_timeout_sec = 2.5
tool_timeout_sec = 30

[mcp_servers.issues]
url = "https://mcp.example.com/mcp"
http_headers = { "X-Team" = "core" }
bearer_token_env_var = "ISSUES_TOKEN"
enabled = false
`);
    assert.deepEqual(warnings, []);
    assert.deepEqual(servers, [
      {
        name: 'files',
        transport: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/my data'],
          env: { LOG: '1' },
          cwd: '/srv',
        },
        enabled: true,
        startupTimeoutMs: 2500,
        toolTimeoutMs: 30_000,
      },
      {
        name: 'issues',
        transport: {
          type: 'http',
          url: 'https://mcp.example.com/mcp',
          headers: { 'X-Team': 'core' },
          bearerTokenEnvVar: 'ISSUES_TOKEN',
        },
        enabled: false,
        startupTimeoutMs: 10_000,
        toolTimeoutMs: 60_000,
      },
    ]);
    assert.equal(
      describeTransport(servers[0]!.transport),
      'npx -y @modelcontextprotocol/server-filesystem "/srv/my data"',
    );
  });

  it('leaves out each broken entry with a log line, and keeps the good ones', () => {
    const { servers, warnings } = read(`
[mcp_servers.good]
command = "good-server"

[mcp_servers.both]
command = "x"
url = "http://127.0.0.1:1/mcp"

[mcp_servers.neither]
enabled = true

[mcp_servers.badargs]
command = "x"
args = "--flag"

[mcp_servers.badurl]
url = "file:///etc/passwd"

[mcp_servers."has space"]
command = "x"

[mcp_servers.badtimeout]
command = "x"
startup_timeout_sec = -1
`);
    assert.deepEqual(
      servers.map((s) => [s.name, s.startupTimeoutMs]),
      [
        ['good', 10_000],
        ['badtimeout', 10_000],
      ],
    );
    for (const name of ['both', 'neither', 'badargs', 'badurl', 'has space', 'badtimeout'])
      assert.ok(
        warnings.some((w) => w.includes(name)),
        `no warning names ${name}: ${warnings.join('\n')}`,
      );
  });

  it('takes a section that is not a table as no servers', () => {
    assert.deepEqual(
      mcpServersFrom(
        'nope',
        createLogger('error', () => {}),
      ),
      [],
    );
    assert.deepEqual(
      mcpServersFrom(
        undefined,
        createLogger('error', () => {}),
      ),
      [],
    );
  });
});
