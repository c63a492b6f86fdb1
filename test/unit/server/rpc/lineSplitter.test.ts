import { strict as assert } from 'node:assert';
import { LineSplitter } from '../../../../server/rpc/ndjson';

function split(chunks: (string | Buffer)[], max = 1024) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const splitter = new LineSplitter(
    max,
    (l) => lines.push(l),
    (b) => oversized.push(b),
  );
  for (const chunk of chunks) splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return { lines, oversized };
}

describe('LineSplitter', () => {
  it('splits lines across chunk boundaries and strips CR', () => {
    assert.deepEqual(split(['{"a"', ':1}\n{"b":2}\r\n', '{"c"', ':3}\n']).lines, [
      '{"a":1}',
      '{"b":2}',
      '{"c":3}',
    ]);
  });

  it('skips blank lines and keeps an unterminated tail pending', () => {
    assert.deepEqual(split(['\n\n  \nx\n', 'tail']).lines, ['x']);
  });

  it('reassembles multi-byte characters split between chunks', () => {
    const bytes = Buffer.from('"héllo ✓"\n');
    assert.deepEqual(split([bytes.subarray(0, 3), bytes.subarray(3, 10), bytes.subarray(10)]).lines, [
      '"héllo ✓"',
    ]);
  });

  it('drops an oversized line as it streams in and reports its size once', () => {
    const big = 'x'.repeat(3000);
    const result = split([big.slice(0, 1000), big.slice(1000), '\nok\n'], 1024);
    assert.deepEqual(result.lines, ['ok']);
    assert.deepEqual(result.oversized, [3000]);
  });
});
