import { strict as assert } from 'node:assert';
import { decodeMessage, encodeMessage } from '../../../../server/rpc/envelope';

function error(text: string) {
  const decoded = decodeMessage(text);
  assert.equal(decoded.ok, false, `expected ${text} to be rejected`);
  return (decoded as Extract<typeof decoded, { ok: false }>).error;
}

describe('rpc envelope', () => {
  it('accepts requests, notifications and responses with or without "jsonrpc"', () => {
    for (const text of [
      '{"id":1,"method":"initialize","params":{}}',
      '{"jsonrpc":"2.0","id":"a","method":"thread/list"}',
      '{"method":"initialized"}',
      '{"id":7,"result":{}}',
      '{"id":null,"error":{"code":1,"message":"x"}}',
    ]) {
      assert.ok(decodeMessage(text).ok, text);
    }
  });

  it('answers unparseable text with -32700 and a null id', () => {
    const e = error('{"id":1,"method":');
    assert.equal(e.code, -32700);
    assert.equal(e.id, null);
    assert.match(e.message, /^Parse error/);
  });

  it('answers well-formed JSON that is not a message with -32600, keeping a usable id', () => {
    assert.deepEqual(
      [error('[1,2]').code, error('42').code, error('null').code, error('{"id":3}').code],
      [-32600, -32600, -32600, -32600],
    );
    assert.equal(error('{"id":3,"method":5}').id, 3);
    assert.equal(error('{"id":{"x":1},"method":"a"}').id, null);
    assert.equal(error('{"id":4,"method":"a","params":"text"}').code, -32600);
    assert.equal(error('{"jsonrpc":"1.0","id":4,"method":"a"}').code, -32600);
  });

  it('omits "jsonrpc" on output', () => {
    assert.equal(
      encodeMessage({ jsonrpc: '2.0', id: 1, result: { ok: true } } as never),
      '{"id":1,"result":{"ok":true}}',
    );
  });
});
