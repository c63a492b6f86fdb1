import { strict as assert } from 'node:assert';
import { Writable } from 'node:stream';
import type { Message } from 'vscode-jsonrpc';
import { Outbox, type OutboxHooks } from '../../../../server/rpc/outbox';

/** A transport whose reader takes nothing until `release`, as an Outbox sink. */
function stalledSink() {
  const written: string[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const pipe = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      void gate.then(() => callback());
    },
  });
  const sink = {
    buffered: () => pipe.writableLength,
    send: (text: string, done: () => void) => void pipe.write(`${text}\n`, done),
  };
  const messages = () =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { method: string; params: Record<string, unknown> });
  return { sink, release, messages };
}

const note = (method: string, params: Record<string, unknown>) =>
  ({ jsonrpc: '2.0', method, params }) as Message;
const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
};
const quiet: OutboxHooks = { onBlocked: () => {}, onOverflow: () => {} };

describe('Outbox', () => {
  it('joins command/exec output as bytes, keeping the last piece’s capReached', async () => {
    const { sink, release, messages } = stalledSink();
    const outbox = new Outbox(sink, { softBytes: 10, hardBytes: null }, quiet);
    outbox.push(note('filler', { text: 'x'.repeat(20) }));
    // Pieces whose base64 ends in padding: joined as text they would not decode.
    const pieces = ['a', 'bc', 'def', 'g'].map((text) => Buffer.from(text));
    pieces.forEach((bytes, i) =>
      outbox.push(
        note('command/exec/outputDelta', {
          processId: 'p',
          stream: 'stdout',
          deltaBase64: bytes.toString('base64'),
          capReached: i === pieces.length - 1,
        }),
      ),
    );
    release();
    await settle();
    const [, joined, ...rest] = messages();
    assert.deepEqual(rest, []);
    assert.deepEqual(joined!.params, {
      processId: 'p',
      stream: 'stdout',
      deltaBase64: Buffer.from('abcdefg').toString('base64'),
      capReached: true,
    });
  });

  it('keeps the streams of one item apart (reasoning summary parts)', async () => {
    const { sink, release, messages } = stalledSink();
    const outbox = new Outbox(sink, { softBytes: 10, hardBytes: null }, quiet);
    outbox.push(note('filler', { text: 'x'.repeat(20) }));
    const part = (summaryIndex: number, delta: string) =>
      note('item/reasoning/summaryTextDelta', {
        threadId: 't',
        turnId: 'u',
        itemId: 'r',
        summaryIndex,
        delta,
      });
    for (const [index, text] of [
      [0, 'one '],
      [0, 'two '],
      [1, 'three '],
      [1, 'four'],
    ] as const)
      outbox.push(part(index, text));
    release();
    await settle();
    assert.deepEqual(
      messages()
        .slice(1)
        .map((m) => [m.params.summaryIndex, m.params.delta]),
      [
        [0, 'one two '],
        [1, 'three four'],
      ],
    );
  });

  it('gives up once more than the hard limit waits: told once, the rest dropped', async () => {
    const { sink, release, messages } = stalledSink();
    const overflows: number[] = [];
    const outbox = new Outbox(
      sink,
      { softBytes: 10, hardBytes: 1000 },
      { onBlocked: () => {}, onOverflow: (bytes) => overflows.push(bytes) },
    );
    outbox.push(note('filler', { text: 'x'.repeat(20) }));
    // Joined deltas cost their text and one envelope: 80 fit, which as 80 messages would not.
    for (let i = 0; i < 80; i++)
      outbox.push(
        note('item/agentMessage/delta', { threadId: 't', turnId: 'u', itemId: 'a', delta: '0123456789' }),
      );
    assert.equal(overflows.length, 0, 'joined deltas do not count their envelopes');
    for (let i = 0; i < 100; i++) outbox.push(note('other', { i }));
    assert.equal(overflows.length, 1);
    assert.ok(overflows[0]! > 1000);
    outbox.push(note('later', {}));
    release();
    await settle();
    assert.deepEqual(
      messages().map((m) => m.method),
      ['filler'],
    );
  });
});
