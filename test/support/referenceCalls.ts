// Calls as the server tests of the reference's methods make them: a result checked against the
// reference schema's response for its method, an error expected, and the prompt-cache invariant
// (each request to the model starts with the whole previous one).
import { strict as assert } from 'node:assert';
import type { RecordedRequest } from '../fixtures/modelServer/scenario';
import { validateServerMessage } from './codexSchema';
import type { MessageLog } from './messageLog';

/** Calls a method and checks its result against the reference schema's response for it. */
export async function checkedCall<T>(server: MessageLog, method: string, params: unknown): Promise<T> {
  const response = await server.request(method, params);
  assert.equal(response.error, undefined, `${method} failed: ${JSON.stringify(response.error)}`);
  assert.deepEqual(validateServerMessage(response, method), [], `${method} matches the reference schema`);
  return response.result as T;
}

/** Calls a method that must fail, and returns its error. */
export async function errorOf(server: MessageLog, method: string, params: unknown) {
  const response = await server.request(method, params);
  assert.ok(response.error, `${method} ${JSON.stringify(params)} should fail`);
  return response.error as { code: number; message: string };
}

export const inputOf = (request: RecordedRequest) => request.body.input as unknown[];

/** Each request's input starts with the whole input of the one before it. */
export function assertEachExtendsPrevious(requests: RecordedRequest[]): void {
  for (let i = 1; i < requests.length; i++) {
    const before = inputOf(requests[i - 1]!);
    assert.deepEqual(inputOf(requests[i]!).slice(0, before.length), before, `request ${i + 1} extends ${i}`);
  }
}
