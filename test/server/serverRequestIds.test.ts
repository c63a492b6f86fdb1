// The extension client hands each server-request handler the request's JSON-RPC id, the one
// `serverRequest/resolved` names later: checked against the real server asking for a command approval
// that is then answered, or cleared by an interrupt.
import { strict as assert } from 'node:assert';
import { ServerClient } from '../../extension/client/serverClient';
import type { RequestId } from '../../server/protocol/serverRequests';
import { serverBundle } from '../support/paths';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome } from '../support/agent';
import { execCall, gitRepo } from '../support/commands';
import { until } from '../support/until';

describe('server request ids in the extension client', function () {
  this.timeout(30_000);
  const model = useModelServer();

  async function askedForApproval(answer: (id: RequestId) => Promise<unknown>) {
    const home = agentHome('responses', model.baseUrl);
    const client = new ServerClient({
      launch: () => ({
        command: process.execPath,
        args: [serverBundle, 'app-server'],
        env: { ...process.env, ...agentEnv, THREADLINE_HOME: home },
      }),
      clientInfo: { name: 'threadline_vscode', title: 'Threadline', version: '0.0.0' },
      log: { info: () => {}, warn: () => {}, error: () => {}, server: () => {} },
    });
    const ids: RequestId[] = [];
    const resolved: unknown[] = [];
    client.handleServerRequest('item/commandExecution/requestApproval', (_params, id) => {
      ids.push(id);
      return answer(id);
    });
    client.onNotification(({ method, params }) => {
      if (method === 'serverRequest/resolved') resolved.push(params);
    });
    const { thread } = await client.request('thread/start', {
      cwd: gitRepo(),
      approvalPolicy: 'untrusted',
      sandbox: 'workspace-write',
    });
    model.script(...execCall({ cmd: 'touch approved.txt' }));
    const { turn } = await client.request('turn/start', {
      threadId: thread.id,
      input: [{ type: 'text', text: 'Touch it' }],
    });
    await until(() => ids.length === 1);
    return { client, ids, resolved, threadId: thread.id, turnId: turn.id };
  }

  it('passes the id that serverRequest/resolved names after the answer', async () => {
    const { client, ids, resolved, threadId } = await askedForApproval(async () => ({ decision: 'decline' }));
    await until(() => resolved.length === 1);
    assert.deepEqual(resolved, [{ threadId, requestId: ids[0] }]);
    await client.dispose();
  });

  it('passes the id that serverRequest/resolved names when an interrupt clears the request', async () => {
    const never = new Promise<never>(() => {});
    const { client, ids, resolved, threadId, turnId } = await askedForApproval(() => never);
    await client.request('turn/interrupt', { threadId, turnId });
    await until(() => resolved.length === 1);
    assert.deepEqual(resolved, [{ threadId, requestId: ids[0] }]);
    await client.dispose();
  });
});
