// The command approval flow through the real server: the policy decides whether to ask, the test
// answers as a client with each decision, and the command runs, or does not, accordingly.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startTurn, turnCompleted } from '../support/agent';
import { answer, commandItems, execCall, gitRepo, serverRequest } from '../support/commands';
import type { Incoming } from '../support/messageLog';
import { tempDir, useServers } from '../support/serverProcess';
import { serverPlatform, unlessWine, WINE_BASH_ONLY, WINE_NO_SANDBOX } from '../support/underWine';

const APPROVAL = 'item/commandExecution/requestApproval';
const bodyText = (request: { body: unknown }) => JSON.stringify(request.body);

describe('command approvals', function () {
  this.timeout(30_000);
  const model = useModelServer();
  const start = useServers();
  const serve = (env: Record<string, string> = {}) =>
    start(agentHome('responses', model.baseUrl), 'threadline_vscode', { ...agentEnv, ...env });

  async function setUp(
    approvalPolicy: string,
    env: Record<string, string> = {},
    sandbox = 'workspace-write',
  ) {
    const repo = gitRepo();
    const server = await serve(env);
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      cwd: repo,
      approvalPolicy,
      sandbox,
    });
    return { repo, server, threadId: thread.id };
  }

  const methodsAfter = (server: { received: Incoming[] }, first: Incoming) =>
    server.received
      .slice(server.received.indexOf(first))
      .map((m) => m.method)
      .filter((m) => m === 'serverRequest/resolved' || m === 'item/completed' || m === APPROVAL);

  it('untrusted asks before a command that is not known to be safe; accept runs it', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const { repo, server, threadId } = await setUp('untrusted');
    model.script(...execCall({ cmd: 'touch approved.txt' }));
    const turn = await startTurn(server, threadId, 'Touch it');
    const request = await serverRequest(server, APPROVAL);
    const params = request.params as Record<string, unknown>;
    const started = await server.notification(
      'item/started',
      (p) => (p.item as { type: string }).type === 'commandExecution',
    );
    assert.equal(params.itemId, (started.params as { item: { id: string } }).item.id);
    assert.equal(params.command, 'touch approved.txt');
    assert.equal(params.cwd, repo);
    assert.equal(params.threadId, threadId);
    assert.equal(params.turnId, turn.id);
    assert.match(String(params.reason), /known-safe/);
    assert.equal(existsSync(join(repo, 'approved.txt')), false, 'it ran before the answer');
    await server.notification(
      'thread/status/changed',
      (p) =>
        JSON.stringify(p.status) === JSON.stringify({ type: 'active', activeFlags: ['waitingOnApproval'] }),
    );
    answer(server, request, { decision: 'accept' });
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    assert.equal(existsSync(join(repo, 'approved.txt')), true);
    const [item] = commandItems(server, turn.id);
    assert.equal(item!.status, 'completed');
    assert.deepEqual(methodsAfter(server, request), [
      APPROVAL,
      'serverRequest/resolved',
      'item/completed',
      'item/completed',
    ]);
    const resolved = await server.notification('serverRequest/resolved');
    assert.deepEqual(resolved.params, { threadId, requestId: request.id });
    const flags = server
      .notifications('thread/status/changed')
      .map((m) => JSON.stringify((m.params as { status: unknown }).status));
    assert.deepEqual(flags, [
      '{"type":"active","activeFlags":[]}',
      '{"type":"active","activeFlags":["waitingOnApproval"]}',
      '{"type":"active","activeFlags":[]}',
      '{"type":"idle"}',
    ]);
  });

  it('untrusted runs known-safe commands without asking', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const { server, threadId } = await setUp('untrusted');
    model.script(...execCall({ cmd: 'git status --short && ls | wc -l' }));
    const turn = await startTurn(server, threadId, 'Look');
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    assert.equal(server.received.filter((m) => m.method === APPROVAL).length, 0);
    assert.equal(commandItems(server, turn.id)[0]!.exitCode, 0);
  });

  it('decline: the command does not run, the item is declined and the model is told', async () => {
    const { repo, server, threadId } = await setUp('untrusted');
    model.script(...execCall({ cmd: 'touch declined.txt' }, 'OK, I will not.'));
    const turn = await startTurn(server, threadId, 'Touch it');
    answer(server, await serverRequest(server, APPROVAL), { decision: 'decline' });
    assert.equal((await turnCompleted(server, turn.id)).status, 'completed');
    assert.equal(existsSync(join(repo, 'declined.txt')), false);
    const [item] = commandItems(server, turn.id);
    assert.equal(item!.status, 'declined');
    assert.match(bodyText(model.requests[1]!), /The user declined to run this command/);
  });

  it('cancel: the command does not run and the turn is interrupted', async () => {
    const { repo, server, threadId } = await setUp('untrusted');
    model.script(...execCall({ cmd: 'touch cancelled.txt' }));
    const turn = await startTurn(server, threadId, 'Touch it');
    answer(server, await serverRequest(server, APPROVAL), { decision: 'cancel' });
    assert.equal((await turnCompleted(server, turn.id)).status, 'interrupted');
    assert.equal(existsSync(join(repo, 'cancelled.txt')), false);
    assert.equal(commandItems(server, turn.id)[0]!.status, 'declined');
    assert.equal(model.requests.length, 1, 'the model was asked again after a cancel');
  });

  it('interrupting the turn clears the waiting approval: serverRequest/resolved, nothing runs', async () => {
    const { repo, server, threadId } = await setUp('untrusted');
    model.script(...execCall({ cmd: 'touch late.txt' }));
    const turn = await startTurn(server, threadId, 'Touch it');
    const request = await serverRequest(server, APPROVAL);
    await server.call('turn/interrupt', { threadId, turnId: turn.id });
    assert.equal((await turnCompleted(server, turn.id)).status, 'interrupted');
    const resolved = await server.notification('serverRequest/resolved');
    assert.deepEqual(resolved.params, { threadId, requestId: request.id });
    // The client's answer comes too late: it is ignored, and nothing runs.
    answer(server, request, { decision: 'accept' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(existsSync(join(repo, 'late.txt')), false);
    assert.equal(commandItems(server, turn.id)[0]!.status, 'declined');
    assert.match(server.stderr, /ignored a late answer/);
  });

  it('acceptForSession: the same command line runs later without asking; others still ask', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const { repo, server, threadId } = await setUp('untrusted');
    model.script(...execCall({ cmd: 'touch one.txt' }));
    const first = await startTurn(server, threadId, 'One');
    const request = await serverRequest(server, APPROVAL);
    answer(server, request, { decision: 'acceptForSession' });
    // A second answer to the same request is ignored, and the server carries on.
    answer(server, request, { decision: 'decline' });
    await turnCompleted(server, first.id);
    model.script(...execCall({ cmd: 'touch one.txt' }));
    const second = await startTurn(server, threadId, 'Again');
    assert.equal((await turnCompleted(server, second.id)).status, 'completed');
    assert.equal(server.received.filter((m) => m.method === APPROVAL).length, 1);
    assert.equal(existsSync(join(repo, 'one.txt')), true);
    model.script(...execCall({ cmd: 'touch two.txt' }));
    const third = await startTurn(server, threadId, 'Other');
    answer(server, await serverRequest(server, APPROVAL, 1), { decision: 'decline' });
    await turnCompleted(server, third.id);
    assert.equal(existsSync(join(repo, 'two.txt')), false);
    // What is chained to an approved command is asked about on its own.
    model.script(...execCall({ cmd: 'touch one.txt; touch three.txt' }));
    const fourth = await startTurn(server, threadId, 'Chained');
    answer(server, await serverRequest(server, APPROVAL, 2), { decision: 'decline' });
    await turnCompleted(server, fourth.id);
    assert.equal(existsSync(join(repo, 'three.txt')), false);
    assert.match(server.stderr, /ignored a response to unknown or already answered request/);
  });

  it('proposes an execpolicy amendment; accepting it allows the prefix for good, saved in the home', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const home = agentHome('responses', model.baseUrl);
    const repo = gitRepo();
    const first = await start(home, 'threadline_vscode', agentEnv);
    const threadStart = { cwd: repo, approvalPolicy: 'untrusted', sandbox: 'workspace-write' };
    const { thread } = await first.call<{ thread: { id: string } }>('thread/start', threadStart);
    model.script(...execCall({ cmd: 'cd . && touch a.txt' }));
    const turn = await startTurn(first, thread.id, 'Touch');
    const request = await serverRequest(first, APPROVAL);
    const params = request.params as Record<string, unknown>;
    const amendment = { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['touch', 'a.txt'] } };
    assert.deepEqual(params.proposedExecpolicyAmendment, ['touch', 'a.txt']);
    assert.deepEqual(params.availableDecisions, [
      'accept',
      'acceptForSession',
      amendment,
      'decline',
      'cancel',
    ]);
    answer(first, request, { decision: amendment });
    await turnCompleted(first, turn.id);
    assert.equal(existsSync(join(repo, 'a.txt')), true);
    assert.equal(
      readFileSync(join(home, 'rules', 'default.rules'), 'utf8'),
      'prefix_rule(pattern=["touch","a.txt"], decision="allow")\n',
    );
    // Another thread of the same server: allowed without asking.
    const other = await first.call<{ thread: { id: string } }>('thread/start', threadStart);
    model.script(...execCall({ cmd: 'touch a.txt b.txt' }));
    await turnCompleted(first, (await startTurn(first, other.thread.id, 'Again')).id);
    assert.equal(existsSync(join(repo, 'b.txt')), true);
    assert.equal(first.received.filter((m) => m.method === APPROVAL).length, 1);
    first.assertSchemaClean();
    await first.stop();

    // A restarted server reads the rule back; a line with more than the prefix still asks.
    const second = await start(home, 'threadline_vscode', agentEnv);
    const later = await second.call<{ thread: { id: string } }>('thread/start', threadStart);
    model.script(...execCall({ cmd: 'touch a.txt c.txt' }));
    await turnCompleted(second, (await startTurn(second, later.thread.id, 'Later')).id);
    assert.equal(existsSync(join(repo, 'c.txt')), true);
    assert.equal(second.received.filter((m) => m.method === APPROVAL).length, 0);
    model.script(...execCall({ cmd: 'touch a.txt && touch d.txt' }));
    const chained = await startTurn(second, later.thread.id, 'Chained');
    const asked = await serverRequest(second, APPROVAL);
    assert.deepEqual((asked.params as Record<string, unknown>).proposedExecpolicyAmendment, [
      'touch',
      'd.txt',
    ]);
    answer(second, asked, { decision: 'decline' });
    await turnCompleted(second, chained.id);
    assert.equal(existsSync(join(repo, 'd.txt')), false);
  });

  it('offers no amendment for a line whose redirections a prefix cannot cover', async () => {
    const { server, threadId } = await setUp('untrusted');
    model.script(...execCall({ cmd: 'echo hi > out.txt' }));
    const turn = await startTurn(server, threadId, 'Write');
    const request = await serverRequest(server, APPROVAL);
    const params = request.params as Record<string, unknown>;
    assert.equal(params.proposedExecpolicyAmendment, undefined);
    assert.deepEqual(params.availableDecisions, ['accept', 'acceptForSession', 'decline', 'cancel']);
    answer(server, request, { decision: 'decline' });
    await turnCompleted(server, turn.id);
  });

  it('on-request: an escalated command asks with its justification and runs outside the sandbox', async function () {
    unlessWine(this, WINE_BASH_ONLY);
    const { server, threadId } = await setUp('on-request');
    const outside = tempDir('threadline-outside-');
    model.script(
      ...execCall({
        cmd: `touch ${outside}/escalated`,
        sandbox_permissions: 'require_escalated',
        justification: 'needs to write the shared cache',
      }),
    );
    const turn = await startTurn(server, threadId, 'Write outside');
    const request = await serverRequest(server, APPROVAL);
    assert.equal((request.params as { reason: string }).reason, 'needs to write the shared cache');
    answer(server, request, { decision: 'accept' });
    await turnCompleted(server, turn.id);
    assert.equal(existsSync(join(outside, 'escalated')), true);
  });

  it('never: an escalated command is refused without asking', async () => {
    const { server, threadId } = await setUp('never');
    const outside = tempDir('threadline-outside-');
    model.script(
      ...execCall(
        { cmd: `touch ${outside}/refused`, sandbox_permissions: 'require_escalated' },
        'Understood.',
      ),
    );
    const turn = await startTurn(server, threadId, 'Write outside');
    await turnCompleted(server, turn.id);
    assert.equal(server.received.filter((m) => m.method === APPROVAL).length, 0);
    assert.equal(existsSync(join(outside, 'refused')), false);
    assert.equal(commandItems(server, turn.id)[0]!.status, 'declined');
    assert.match(bodyText(model.requests[1]!), /approval policy is \\"never\\"/);
  });

  it('without a sandbox every command asks first, and the item says why', async () => {
    const { repo, server, threadId } = await setUp('on-request', { THREADLINE_BWRAP: '/nonexistent/bwrap' });
    model.script(...execCall({ cmd: 'echo unconfined > out.txt' }));
    const turn = await startTurn(server, threadId, 'Write');
    const request = await serverRequest(server, APPROVAL);
    assert.match((request.params as { reason: string }).reason, /No sandbox is available/);
    answer(server, request, { decision: 'accept' });
    await turnCompleted(server, turn.id);
    assert.equal(existsSync(join(repo, 'out.txt')), true);
    assert.match(bodyText(model.requests[1]!), /no sandbox is available/);
    const [item] = commandItems(server, turn.id);
    const why =
      serverPlatform() === 'win32' ? 'no sandbox on win32' : 'bubblewrap \\(bwrap\\) is not installed';
    assert.match(item!.aggregatedOutput!, new RegExp(`^\\[no sandbox available \\(${why}\\)`));
  });

  it('onFailure: a command that fails in the sandbox may run again outside it once approved', async function () {
    unlessWine(this, WINE_NO_SANDBOX);
    const { server, threadId } = await setUp('onFailure');
    const outside = tempDir('threadline-outside-');
    model.script(...execCall({ cmd: `touch ${outside}/retried` }));
    const turn = await startTurn(server, threadId, 'Write outside');
    const request = await serverRequest(server, APPROVAL);
    assert.match((request.params as { reason: string }).reason, /failed in the sandbox/);
    assert.equal(existsSync(join(outside, 'retried')), false);
    answer(server, request, { decision: 'accept' });
    await turnCompleted(server, turn.id);
    assert.equal(existsSync(join(outside, 'retried')), true);
    assert.equal(commandItems(server, turn.id)[0]!.exitCode, 0);
  });
});
