// Which package runs the MCP trust question calls unpinned: a runner fetching a package without an
// exact version, whichever runner and wherever the package is named; a local path is no package.
import { strict as assert } from 'node:assert';
import { unpinnedRuns } from '../../../../server/mcp/namedCode';

describe('unpinnedRuns', () => {
  it('names each runner fetching a package without an exact version', () => {
    assert.deepEqual(unpinnedRuns('npx', ['-y', 'pkg']), ['npx pkg']);
    assert.deepEqual(unpinnedRuns('/usr/bin/npx', ['pkg@latest', '--port', '1']), ['npx pkg@latest']);
    assert.deepEqual(unpinnedRuns('npx.cmd', ['pkg@^1.2.0']), ['npx pkg@^1.2.0']);
    assert.deepEqual(unpinnedRuns('npx', ['--package=@s/pkg', 'bin']), ['npx @s/pkg']);
    assert.deepEqual(unpinnedRuns('uvx', ['--from', 'mcp-tool>=1', 'tool']), ['uvx mcp-tool>=1']);
    assert.deepEqual(unpinnedRuns('uvx', ['mcp-server-git']), ['uvx mcp-server-git']);
    assert.deepEqual(unpinnedRuns('pnpm', ['dlx', 'pkg']), ['pnpm dlx pkg']);
    assert.deepEqual(unpinnedRuns('bunx', ['pkg@1']), ['bunx pkg@1']);
    assert.deepEqual(unpinnedRuns('uv', ['tool', 'run', 'pkg']), ['uv tool run pkg']);
  });

  it('leaves exact versions, local paths and other commands alone', () => {
    assert.deepEqual(unpinnedRuns('npx', ['-y', '@scope/pkg@1.2.3']), []);
    assert.deepEqual(unpinnedRuns('uvx', ['mcp-server-git==0.6.2']), []);
    assert.deepEqual(unpinnedRuns('pipx', ['run', 'pkg==2.0.0-rc.1']), []);
    assert.deepEqual(unpinnedRuns('npx', ['./tools/server']), []);
    assert.deepEqual(unpinnedRuns('pnpm', ['run', 'mcp']), []);
    assert.deepEqual(unpinnedRuns('node', ['server.js']), []);
  });
});
