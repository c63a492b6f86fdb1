// The server-sent event parser on its own: events split anywhere across chunks, CRLF line ends,
// comments, multi-line data.
import { strict as assert } from 'node:assert';
import { SseParser } from '../../../../server/providers/sse';

describe('provider SSE parser', () => {
  const stream =
    'event: a\ndata: {"x":1}\n\n: keep-alive\n\ndata: [DONE]\n\nevent: b\ndata: one\ndata: two\n\n';
  const expected = [
    { event: 'a', data: '{"x":1}' },
    { event: '', data: '[DONE]' },
    { event: 'b', data: 'one\ntwo' },
  ];

  it('parses whole events and skips comments', () => {
    assert.deepEqual(new SseParser().push(stream), expected);
  });

  it('gives the same events however the text is split', () => {
    for (const text of [stream, stream.replace(/\n/g, '\r\n')]) {
      for (let size = 1; size <= 7; size++) {
        const parser = new SseParser();
        const events = [];
        for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
        assert.deepEqual(events, expected, `chunks of ${size}`);
      }
    }
  });

  it('keeps an unterminated event until its blank line arrives', () => {
    const parser = new SseParser();
    assert.deepEqual(parser.push('data: {"partial":'), []);
    assert.deepEqual(parser.push('true}\n'), []);
    assert.deepEqual(parser.push('\n'), [{ event: '', data: '{"partial":true}' }]);
  });

  it('accepts fields without a space after the colon', () => {
    assert.deepEqual(new SseParser().push('event:x\ndata:y\n\n'), [{ event: 'x', data: 'y' }]);
  });

  it('drops events it is told nobody reads, however they are split, and keeps the rest', () => {
    const long = 'x'.repeat(5000);
    const text = `event: skip\ndata: ${long}\n\n${stream}event: skip\ndata: ${long}\n\nevent: a\ndata: last\n\n`;
    for (const size of [1, 3, 7, 1000, 4096]) {
      const parser = new SseParser((name) => name !== 'skip');
      const events = [];
      for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
      assert.deepEqual(events, [...expected, { event: 'a', data: 'last' }], `chunks of ${size}`);
    }
  });

  it('reads an event of many chunks once it is whole', () => {
    const parser = new SseParser();
    const long = 'y'.repeat(100_000);
    const text = `data: ${long}\n\n`;
    const events = [];
    for (let i = 0; i < text.length; i += 1024) events.push(...parser.push(text.slice(i, i + 1024)));
    assert.deepEqual(events, [{ event: '', data: long }]);
  });

  it('keeps the start of the next event that arrives with the end of an event of megabytes', () => {
    const parser = new SseParser();
    const long = 'z😀'.repeat(700_000);
    const chunks = [
      `event: big\ndata: ${long.slice(0, 100)}`,
      `${long.slice(100)}\n\nevent: next\ndata: 😀é`,
      '!\n\n',
    ];
    assert.deepEqual(
      chunks.flatMap((chunk) => parser.push(chunk)),
      [
        { event: 'big', data: long },
        { event: 'next', data: '😀é!' },
      ],
    );
  });
});
