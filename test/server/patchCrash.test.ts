// A server killed in the middle of writing a patch leaves every file whole: old or new, never
// truncated or mixed. The patch updates many large files; the test watches the workspace and kills
// the real server process (SIGKILL, no chance to clean up) the moment the first file is replaced,
// while the others are still to be written.
import { strict as assert } from 'node:assert';
import { realpathSync } from 'node:fs';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn } from '../support/agent';
import { killAtFirstReplacement, largeFiles, patchCall } from '../support/patches';
import { tempDir, useServers } from '../support/serverProcess';

const FILES = 300;

describe('apply_patch when the server is killed mid-patch', function () {
  this.timeout(60_000);
  const model = useModelServer();
  const start = useServers();
  let workspace: string;
  let home: string;
  beforeEach(() => {
    workspace = realpathSync(tempDir('threadline-crash-'));
    home = agentHome('responses', model.baseUrl);
  });

  it('leaves each file either as it was or as the patch made it', async () => {
    const files = largeFiles(workspace, FILES);
    model.script(patchCall(files.patch), {
      output: [{ text: 'Done.' }],
    });
    const server = await start(home, 'threadline_vscode', agentEnv);
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', { cwd: workspace });
    const killed = killAtFirstReplacement(workspace, server.child);
    await startTurn(server, thread.id, 'Rename the headers', {
      approvalPolicy: 'never',
      sandboxPolicy: { type: 'workspaceWrite' },
    });
    await killed;
    assert.equal((await server.exited).signal, 'SIGKILL');

    const written = files.states().filter((state) => state === 'new').length;
    const leftovers = files.strays();
    console.log(`      killed after ${written} of ${FILES} files; temporary files left: ${leftovers.length}`);
    assert.ok(written >= 1, 'the kill came after the first file was replaced');
    assert.ok(written < FILES, 'the kill came before the last file was replaced');
    // At most the one temporary sibling being written when the kill came, never a target.
    assert.ok(leftovers.length <= 1, leftovers.join(', '));
    for (const file of leftovers) assert.match(file, /^\.f\d{3}\.txt\.[0-9a-f]{12}\.threadline-tmp$/);
  });
});
