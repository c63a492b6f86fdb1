import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import type { NotificationMessage } from 'vscode-jsonrpc';
import { NdjsonMessageWriter } from '../../../../server/rpc/ndjson';
import { until } from '../../../support/until';

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
  const lines = () =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { method: string; params: Record<string, unknown> });
  return { pipe, lines, release };
}

const notification = (method: string, params: Record<string, unknown>) =>
  ({ jsonrpc: '2.0', method, params }) as NotificationMessage;
const delta = (itemId: string, text: string) =>
  notification('item/agentMessage/delta', { threadId: 't', turnId: 'u', itemId, delta: text });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('NdjsonMessageWriter', () => {
  it('writes a message of megabytes in slices, surrogate pairs whole, and nothing between its slices', async () => {
    const { pipe, lines, release } = stalledPipe();
    const chunks: number[] = [];
    let ended = false;
    const write = pipe._write.bind(pipe);
    pipe._write = (chunk: Buffer, encoding, callback) => {
      chunks.push(chunk.length);
      ended ||= chunk.includes('"after"');
      write(chunk, encoding, callback);
    };
    release();
    const writer = new NdjsonMessageWriter(pipe);
    // Pairs at every third code unit: the first slice boundary (1 MiB) falls inside one.
    const text = '😀é'.repeat(1_500_000);
    await writer.write(notification('big', { text }));
    await writer.write(notification('after', { i: 1 }));
    await until(() => ended);
    assert.deepEqual(
      lines().map((line) => line.method),
      ['big', 'after'],
    );
    assert.equal(lines()[0]!.params.text, text);
    assert.ok(chunks.length > 4, `written in ${chunks.length} chunks`);
    assert.ok(Math.max(...chunks) <= 3 * 1024 * 1024, 'no chunk holds more than a slice');
  });

  it('never makes a write wait for a full pipe, announces the backup once each way and loses nothing', async () => {
    const { pipe, lines, release } = stalledPipe();
    const blocked: boolean[] = [];
    const writer = new NdjsonMessageWriter(pipe, { onBackpressure: (b) => blocked.push(b) });
    const big = 'x'.repeat(64 * 1024);
    const writes = Array.from({ length: 40 }, (_, i) => writer.write(notification('n', { i, big })));
    await Promise.all(writes);
    assert.deepEqual(blocked, [true], 'past 1 MiB in the pipe, messages wait in the writer');
    release();
    await tick();
    await tick();
    assert.deepEqual(blocked, [true, false]);
    assert.deepEqual(
      lines().map((line) => line.params.i),
      Array.from({ length: 40 }, (_, i) => i),
    );
  });

  it('joins the deltas of one item that wait for a slow reader, in order around other messages', async () => {
    const { pipe, lines, release } = stalledPipe();
    const writer = new NdjsonMessageWriter(pipe);
    // Fill the pipe past its budget so that what follows waits in the writer.
    await writer.write(notification('filler', { big: 'x'.repeat(1024 * 1024) }));
    const sent: string[] = [];
    for (let i = 0; i < 1000; i++) {
      sent.push(`a${i} `);
      await writer.write(delta('A', `a${i} `));
      if (i % 10 === 0) await writer.write(delta('B', `b${i} `));
      if (i === 499) await writer.write(notification('item/completed', { marker: 'half' }));
    }
    await writer.write(notification('turn/completed', {}));
    release();
    await tick();
    await tick();
    const received = lines().slice(1);
    const methods = received.map((line) => line.method);
    // Every delta of the first half goes out before the message written after it, and so on.
    const half = methods.indexOf('item/completed');
    const textOf = (from: number, to: number, itemId: string) =>
      received
        .slice(from, to)
        .filter((line) => line.params.itemId === itemId)
        .map((line) => line.params.delta)
        .join('');
    assert.equal(textOf(0, half, 'A'), sent.slice(0, 500).join(''));
    assert.equal(textOf(half, received.length, 'A'), sent.slice(500).join(''));
    assert.deepEqual(methods.slice(half - 2), [
      'item/agentMessage/delta',
      'item/agentMessage/delta',
      'item/completed',
      'item/agentMessage/delta',
      'item/agentMessage/delta',
      'turn/completed',
    ]);
    assert.ok(received.length < 20, `joined into a few messages, got ${received.length}`);
  });
});
