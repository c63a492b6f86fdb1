import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import type { NotificationMessage } from 'vscode-jsonrpc';
import { NdjsonMessageWriter } from '../../../../server/rpc/ndjson';

/** A pipe whose reader takes nothing until `release` is called. */
function stalledPipe() {
  const written: string[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const pipe = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      void gate.then(() => callback());
    },
  });
  return { pipe, written, release };
}

describe('NdjsonMessageWriter', () => {
  it('makes every write to a full pipe wait for one drain, announced once each way', async () => {
    const { pipe, written, release } = stalledPipe();
    const blocked: boolean[] = [];
    const writer = new NdjsonMessageWriter(pipe, { onBackpressure: (b) => blocked.push(b) });
    let settled = 0;
    const writes = Array.from({ length: 2000 }, (_, i) =>
      writer
        .write({ jsonrpc: '2.0', method: 'n', params: { i } } as NotificationMessage)
        .then(() => settled++),
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled < 2000, true, 'writes to a full pipe wait');
    assert.equal(pipe.listenerCount('drain'), 1);
    assert.deepEqual(blocked, [true]);
    release();
    await Promise.all(writes);
    assert.deepEqual(blocked, [true, false]);
    assert.equal(pipe.listenerCount('drain'), 0);
    const lines = written.join('').split('\n').filter(Boolean);
    assert.equal(lines.length, 2000);
    assert.deepEqual(JSON.parse(lines[1999]!), { method: 'n', params: { i: 1999 } });
  });
});
