// A server killed in the middle of writing a patch leaves every file whole: old or new, never
// truncated or mixed. The patch updates many large files; the test watches the workspace and kills
// the real server process (SIGKILL, no chance to clean up) the moment the first file is replaced,
// while the others are still to be written.
import { strict as assert } from 'node:assert';
import { mkdirSync, readdirSync, readFileSync, realpathSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn } from '../support/agent';
import { patchCall } from '../support/patches';
import { tempDir, useServers } from '../support/serverProcess';

const FILES = 300;
const name = (i: number) => `f${String(i).padStart(3, '0')}.txt`;
/** 64 KiB a file, so the writes take long enough to be caught in the middle. */
const body = (i: number, word: string) => `${word} header ${i}\n${'filler line of text\n'.repeat(3200)}`;

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
    mkdirSync(join(workspace, 'src'));
    for (let i = 0; i < FILES; i++) writeFileSync(join(workspace, 'src', name(i)), body(i, 'old'));
    const sections = Array.from({ length: FILES }, (_, i) => [
      `*** Update File: src/${name(i)}`,
      '@@',
      `-old header ${i}`,
      `+new header ${i}`,
    ]).flat();
    model.script(patchCall(['*** Begin Patch', ...sections, '*** End Patch'].join('\n')), {
      output: [{ text: 'Done.' }],
    });
    const server = await start(home, 'threadline_vscode', agentEnv);
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', { cwd: workspace });
    const killed = new Promise<void>((resolve) => {
      const watcher = watch(join(workspace, 'src'), (_event, file) => {
        // The first rename of a temporary sibling over its file: kill before the next one.
        if (!file || !/^f\d{3}\.txt$/.test(file)) return;
        server.child.kill('SIGKILL');
        watcher.close();
        resolve();
      });
    });
    await startTurn(server, thread.id, 'Rename the headers', {
      approvalPolicy: 'never',
      sandboxPolicy: { type: 'workspaceWrite' },
    });
    await killed;
    assert.equal((await server.exited).signal, 'SIGKILL');

    let written = 0;
    for (let i = 0; i < FILES; i++) {
      const text = readFileSync(join(workspace, 'src', name(i)), 'utf8');
      if (text === body(i, 'new')) written++;
      else assert.equal(text, body(i, 'old'), `${name(i)} is neither old nor new`);
    }
    const leftovers = readdirSync(join(workspace, 'src')).filter((file) => !/^f\d{3}\.txt$/.test(file));
    console.log(`      killed after ${written} of ${FILES} files; temporary files left: ${leftovers.length}`);
    assert.ok(written >= 1, 'the kill came after the first file was replaced');
    assert.ok(written < FILES, 'the kill came before the last file was replaced');
    // At most the one temporary sibling being written when the kill came, never a target.
    assert.ok(leftovers.length <= 1, leftovers.join(', '));
    for (const file of leftovers) assert.match(file, /^\.f\d{3}\.txt\.[0-9a-f]{12}\.threadline-tmp$/);
  });
});
