// feedback/save: the feedback bundle (report, rollout, log, extra files, scrubbed) as one ZIP at the
// path the client gives, read back with yauzl; a path that exists is never overwritten.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, runTurn, startThread } from '../support/agent';
import { tempDir, useServers } from '../support/serverProcess';
import { serverHasFileModes } from '../support/underWine';

const STORED_KEY = 'sk-stored-feedback-save-0123456789';

/** Every entry of a ZIP, by name, as text. */
function readZip(path: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const files = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('feedback/save', () => {
  const model = useModelServer();
  const start = useServers();

  it('writes the scrubbed bundle as a ZIP at savePath, owner-only, and never over an existing file', async () => {
    const home = agentHome('responses', model.baseUrl);
    const server = await start(home, 'threadline_vscode', { ...agentEnv, SCRIPTED_API_KEY: '' });
    await server.call('account/login/start', { type: 'apiKey', apiKey: STORED_KEY });
    const threadId = await startThread(server);
    model.script({ output: [{ text: 'Noted.' }] });
    assert.equal((await runTurn(server, threadId, `Key ${STORED_KEY}. Fix the bug.`)).status, 'completed');
    const folder = tempDir('threadline-feedback-save-');
    const extra = join(folder, 'client.log');
    writeFileSync(extra, `the client saw ${STORED_KEY} and carried on\n`);
    const savePath = join(folder, 'report.zip');

    const result = await server.call<{ savedPath: string; threadId: string; promptHash: string | null }>(
      'feedback/save',
      { classification: 'bug', reason: 'slow', threadId, extraLogFiles: [extra], tags: { k: 'v' }, savePath },
    );
    assert.equal(result.savedPath, savePath);
    const files = await readZip(savePath);
    assert.deepEqual(
      [...files.keys()],
      ['rollout.jsonl', 'server.log', 'extra-1-client.log', 'feedback.json'],
    );
    const report = JSON.parse(files.get('feedback.json')!);
    assert.equal(report.id, result.threadId);
    assert.equal(report.threadId, threadId);
    assert.deepEqual(report.tags, { k: 'v' });
    assert.match(files.get('rollout.jsonl')!, /Fix the bug\./);
    assert.match(files.get('extra-1-client.log')!, /carried on/);
    for (const [name, text] of files) assert.ok(!text.includes(STORED_KEY), `${name} holds the key`);
    if (serverHasFileModes()) assert.equal(statSync(savePath).mode & 0o777, 0o600);
    assert.ok(!existsSync(join(home, 'feedback')), 'nothing is kept under the home as well');

    const before = readFileSync(savePath);
    const again = await server.request('feedback/save', { classification: 'bug', savePath });
    assert.equal(again.error?.code, -32602);
    assert.match(again.error!.message, /savePath: .*report\.zip already exists/);
    assert.deepEqual(readFileSync(savePath), before, 'the existing file is untouched');
    for (const bad of [
      { classification: 'bug', savePath: 'relative.zip' },
      { classification: 'bug' },
      { classification: 'bug', savePath: join(folder, 'other.zip'), threadId: 'no-such-thread' },
    ]) {
      const answer = await server.request('feedback/save', bad);
      assert.ok(answer.error, JSON.stringify(bad));
      assert.notEqual(answer.error.code, -32601);
    }
    assert.ok(!existsSync(join(folder, 'other.zip')));
    assert.equal(
      (await server.request('feedback/save', { classification: 'bug', savePath: 'r.zip' })).error?.code,
      -32602,
    );
    server.assertSchemaClean();
  });
});
