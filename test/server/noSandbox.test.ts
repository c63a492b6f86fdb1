// Where bubblewrap is missing (THREADLINE_BWRAP names nothing), every command that would have run
// in the sandbox asks first, also one approved for the session and one an allow rule covers, and its
// item says it ran unconfined. Real server, scripted model, the test answering as a client.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { answer, commandItems, execCall, gitRepo, serverRequest } from '../support/commands';
import { useServers } from '../support/serverProcess';

const APPROVAL = 'item/commandExecution/requestApproval';
const UNCONFINED =
  /^\[no sandbox available \(bubblewrap \(bwrap\) is not installed\): the command runs unconfined\]/;

describe('commands where no sandbox works', function () {
  this.timeout(30_000);
  const model = useModelServer();
  const start = useServers();

  async function setUp(approvalPolicy: string, rules?: string) {
    const home = agentHome('responses', model.baseUrl);
    const repo = gitRepo();
    if (rules) {
      mkdirSync(join(home, 'rules'));
      writeFileSync(join(home, 'rules', 'default.rules'), rules);
    }
    const server = await start(home, 'threadline_vscode', {
      ...agentEnv,
      THREADLINE_BWRAP: '/nonexistent/bwrap',
    });
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd: repo,
      approvalPolicy,
      sandbox: 'workspace-write',
    });
    return { repo, server, threadId: thread.id };
  }

  it('a command approved for the session is asked about again, and says it ran unconfined', async () => {
    const { repo, server, threadId } = await setUp('on-request');
    model.script(...execCall({ cmd: 'touch one.txt' }));
    const first = await startTurn(server, threadId, 'One');
    const request = await serverRequest(server, APPROVAL);
    assert.match((request.params as { reason: string }).reason, /No sandbox is available/);
    answer(server, request, { decision: 'acceptForSession' });
    await turnCompleted(server, first.id);
    assert.equal(existsSync(join(repo, 'one.txt')), true);
    rmSync(join(repo, 'one.txt'));

    model.script(...execCall({ cmd: 'touch one.txt' }));
    const second = await startTurn(server, threadId, 'Again');
    const again = await serverRequest(server, APPROVAL, 1);
    assert.match((again.params as { reason: string }).reason, /No sandbox is available/);
    assert.equal(existsSync(join(repo, 'one.txt')), false, 'it ran before the answer');
    answer(server, again, { decision: 'decline' });
    assert.equal((await turnCompleted(server, second.id)).status, 'completed');
    assert.equal(existsSync(join(repo, 'one.txt')), false);
    const [ran] = commandItems(server, first.id);
    assert.match(ran!.aggregatedOutput!, UNCONFINED);
    assert.equal(commandItems(server, second.id)[0]!.status, 'declined');
  });

  it('a command an allow rule covers is asked about, and runs unconfined once accepted', async () => {
    const { repo, server, threadId } = await setUp(
      'untrusted',
      'prefix_rule(pattern=["touch"], decision="allow")\n',
    );
    model.script(...execCall({ cmd: 'touch ruled.txt' }));
    const turn = await startTurn(server, threadId, 'Touch');
    const request = await serverRequest(server, APPROVAL);
    assert.match((request.params as { reason: string }).reason, /No sandbox is available/);
    assert.equal(existsSync(join(repo, 'ruled.txt')), false, 'it ran before the answer');
    answer(server, request, { decision: 'accept' });
    await turnCompleted(server, turn.id);
    assert.equal(existsSync(join(repo, 'ruled.txt')), true);
    assert.match(commandItems(server, turn.id)[0]!.aggregatedOutput!, UNCONFINED);
  });

  it('a known-safe read asks too, and never refuses outright', async () => {
    const { server, threadId } = await setUp('untrusted');
    model.script(...execCall({ cmd: 'cat README.md' }));
    const turn = await startTurn(server, threadId, 'Read');
    answer(server, await serverRequest(server, APPROVAL), { decision: 'accept' });
    await turnCompleted(server, turn.id);
    const [item] = commandItems(server, turn.id);
    assert.match(item!.aggregatedOutput!, UNCONFINED);
    assert.match(item!.aggregatedOutput!, /# demo/);
  });

  it('command/exec refuses a confining policy it cannot honour, and runs with full access', async () => {
    const { repo, server } = await setUp('on-request');
    const refused = await server.request('command/exec', {
      command: ['touch', 'refused.txt'],
      cwd: repo,
      sandboxPolicy: { type: 'readOnly', networkAccess: false },
    });
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error!.message, /cannot confine the command.*bubblewrap \(bwrap\) is not installed/);
    assert.equal(existsSync(join(repo, 'refused.txt')), false);
    const ran = await server.call<{ exitCode: number }>('command/exec', {
      command: ['touch', 'ran.txt'],
      cwd: repo,
      sandboxPolicy: { type: 'dangerFullAccess' },
    });
    assert.equal(ran.exitCode, 0);
    assert.equal(existsSync(join(repo, 'ran.txt')), true);
  });

  it('under "never" nothing runs, since nothing can be approved', async () => {
    const { repo, server, threadId } = await setUp(
      'never',
      'prefix_rule(pattern=["touch"], decision="allow")\n',
    );
    model.script(...execCall({ cmd: 'touch never.txt' }));
    const turn = await startTurn(server, threadId, 'Touch');
    await turnCompleted(server, turn.id);
    assert.equal(server.received.filter((m) => m.method === APPROVAL).length, 0);
    assert.equal(existsSync(join(repo, 'never.txt')), false);
    assert.equal(commandItems(server, turn.id)[0]!.status, 'declined');
  });
});
