// view_image through the real server: the imageView item, and the image itself in the model's next
// request, in each wire format (on Chat Completions as a user message after the tool results).
import { strict as assert } from 'node:assert';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ThreadItem } from '../../server/protocol/items';
import { useModelServer } from '../fixtures/modelServer/server';
import type { WireFormat } from '../fixtures/modelServer/scenario';
import { agentEnv, agentHome, completedItems, runTurn, startThread } from '../support/agent';
import { tempDir, useServers } from '../support/serverProcess';

// A 1×1 transparent PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

for (const wire of ['responses', 'chat', 'anthropic'] as WireFormat[]) {
  describe(`view_image over the ${wire} wire`, function () {
    const model = useModelServer();
    const start = useServers();
    const serve = () => start(agentHome(wire, model.baseUrl), 'threadline_vscode', agentEnv);
    const viewCall = (path: string) => ({
      output: [{ toolCall: { name: 'view_image', arguments: JSON.stringify({ path }), callId: 'call_img' } }],
    });

    it('shows an imageView item and sends the image to the model', async () => {
      const cwd = tempDir('threadline-images-');
      writeFileSync(join(cwd, 'pic.png'), PNG);
      model.script(viewCall('pic.png'), { output: [{ text: 'A tiny image.' }] });
      const server = await serve();
      const threadId = await startThread(server, cwd);
      const done = await runTurn(server, threadId, 'Look at pic.png');
      assert.equal(done.status, 'completed');
      const items = completedItems(server, done.id);
      assert.deepEqual(
        items.map((i: ThreadItem) => i.type),
        ['userMessage', 'imageView', 'agentMessage'],
      );
      assert.equal((items[1] as { path: string }).path, join(cwd, 'pic.png'));
      const second = JSON.stringify(model.requests[1]!.body);
      assert.ok(second.includes(PNG.toString('base64')), 'the image data reaches the model');
      assert.match(second, /call_img/);
      server.assertSchemaClean();
    });

    it('tells the model when the image cannot be read', async () => {
      const cwd = tempDir('threadline-images-');
      writeFileSync(join(cwd, 'notes.txt'), 'not an image');
      model.script(viewCall('missing.png'), viewCall('notes.txt'), { output: [{ text: 'Sorry.' }] });
      const server = await serve();
      const threadId = await startThread(server, cwd);
      const done = await runTurn(server, threadId, 'Look');
      assert.equal(done.status, 'completed');
      assert.ok(!completedItems(server, done.id).some((i) => i.type === 'imageView'));
      assert.match(JSON.stringify(model.requests[1]!.body), /missing\.png: no such file/);
      assert.match(JSON.stringify(model.requests[2]!.body), /notes\.txt: not a PNG, JPEG, GIF or WebP image/);
    });

    it('sends nothing that only has an image name: a .png link to the stored API keys', async () => {
      const cwd = tempDir('threadline-images-');
      const server = await serve();
      const secret = 'sk-viewimage-canary-0123456789';
      writeFileSync(join(server.home, 'auth.json'), JSON.stringify({ openai: { apiKey: secret } }));
      symlinkSync(join(server.home, 'auth.json'), join(cwd, 'keys.png'));
      model.script(viewCall('keys.png'), { output: [{ text: 'Sorry.' }] });
      const threadId = await startThread(server, cwd);
      const done = await runTurn(server, threadId, 'Look');
      assert.equal(done.status, 'completed');
      const second = JSON.stringify(model.requests[1]!.body);
      assert.match(second, /keys\.png: its content is not a PNG image/);
      assert.ok(
        !second.includes(Buffer.from(JSON.stringify({ openai: { apiKey: secret } })).toString('base64')),
      );
      assert.ok(!JSON.stringify(server.received).includes(secret));
    });
  });
}
