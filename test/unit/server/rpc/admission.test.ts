import { strict as assert } from 'node:assert';
import { Admission, IGNORED } from '../../../../server/rpc/admission';

const request = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'thread/list' }) as never;
const response = (id: number | string) => ({ jsonrpc: '2.0', id, result: {} }) as never;

describe('Admission', () => {
  it('rejects a request id that is still in flight, and allows it again once answered', () => {
    const admission = new Admission(10);
    assert.equal(admission.admit(request(1)), undefined);
    assert.equal(admission.admit(request(1))?.code, -32600);
    admission.settle(response(1));
    assert.equal(admission.admit(request(1)), undefined);
  });

  it('answers -32001 once the in-flight limit is reached', () => {
    const admission = new Admission(2);
    admission.admit(request('a'));
    admission.admit(request('b'));
    assert.deepEqual(admission.admit(request('c')), {
      code: -32001,
      message: 'Server overloaded; retry later.',
      id: 'c',
    });
    admission.settle(response('a'));
    assert.equal(admission.admit(request('c')), undefined);
  });

  it('does not let its own rejection settle the original request with that id', () => {
    const admission = new Admission(10);
    admission.admit(request(5));
    const rejection = admission.rejection(admission.admit(request(5))!);
    admission.settle(rejection);
    assert.equal(admission.size, 1);
  });

  it('ignores notifications and server-bound responses', () => {
    const admission = new Admission(1);
    assert.equal(admission.admit({ jsonrpc: '2.0', method: 'initialized' } as never), undefined);
    assert.equal(admission.admit(response(9)), undefined);
    assert.equal(admission.size, 0);
  });
});

describe('Admission of reserved notifications', () => {
  it("keeps vscode-jsonrpc's own $/ notifications away from the connection", () => {
    const admission = new Admission(10);
    assert.equal(
      admission.admit({ jsonrpc: '2.0', method: '$/cancelRequest', params: {} } as never),
      IGNORED,
    );
    assert.equal(admission.admit({ jsonrpc: '2.0', method: '$/setTrace' } as never), IGNORED);
    assert.equal(admission.admit({ jsonrpc: '2.0', method: 'initialized' } as never), undefined);
  });
});
