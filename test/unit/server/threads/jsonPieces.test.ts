// Records written in pieces: whatever they hold, the pieces join to JSON that parses back to the
// record, and a record without a long string is one piece.
import { strict as assert } from 'node:assert';
import { jsonPieces } from '../../../../server/threads/jsonPieces';

describe('JSON in pieces', () => {
  it('writes a small record as one JSON.stringify', () => {
    const record = { type: 'item', ts: 1, item: { text: 'short "quoted"\n' } };
    assert.deepEqual([...jsonPieces(record)], [JSON.stringify(record)]);
  });

  it('escapes long strings a slice at a time, quotes, newlines, NULs and split surrogate pairs included', () => {
    const long = 'b' + 'a"\\\n\u0000😀'.repeat(40_000);
    const record = { type: 'item', item: { text: long, parts: [long, 'x', null] }, after: 'end' };
    const pieces = [...jsonPieces(record)];
    assert.ok(pieces.length > 10, 'a long string goes in slices');
    assert.ok(Math.max(...pieces.map((p) => p.length)) < 300_000, 'no piece holds the whole string');
    assert.deepEqual(JSON.parse(pieces.join('')), record);
  });

  it('is not fooled by a string that looks like its marker', () => {
    const record = { a: 'x'.repeat(40_000), b: '\u0000deadbeefdeadbeef:1' };
    assert.deepEqual(JSON.parse([...jsonPieces(record)].join('')), record);
  });
});
