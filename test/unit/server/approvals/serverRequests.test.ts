// The approvals core over real connections: ClientConnection with NDJSON on in-memory pipes, the
// real LoadedThreads, broker and gate. The test plays the clients.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ActiveTurn } from '../../../../server/agent/activeTurn';
import { TurnEmitter, type Notifier } from '../../../../server/agent/turnEmitter';
import { Approvals } from '../../../../server/approvals/approvals';
import { ExecpolicyRules } from '../../../../server/approvals/execpolicyRules';
import { parseCommandLine, type CommandLine } from '../../../../server/exec/commandLine';
import { createLogger } from '../../../../server/log';
import { ClientConnection } from '../../../../server/rpc/clientConnection';
import { NdjsonMessageReader, NdjsonMessageWriter } from '../../../../server/rpc/ndjson';
import { LoadedThreads } from '../../../../server/threads/loadedThreads';
import { LoadedThread } from '../../../../server/loadedThread';
import { tempDir } from '../../../support/tempDirs';

type Message = { id?: number | string; method?: string; params?: Record<string, unknown> };

class TestClient {
  readonly received: Message[] = [];
  private readonly toServer = new PassThrough();
  private readonly fromServer = new PassThrough();
  readonly connection: ClientConnection;
  private waiters: (() => void)[] = [];

  constructor(logLines: string[]) {
    const log = createLogger('debug', (line) => logLines.push(line));
    this.connection = new ClientConnection(
      {
        describe: 'test',
        createReader: (hooks) => new NdjsonMessageReader(this.toServer, hooks),
        createWriter: (hooks) => new NdjsonMessageWriter(this.fromServer, hooks),
      },
      async () => ({}),
      log,
    );
    this.connection.completeHandshake({
      clientInfo: { name: 'test', version: '1' },
      experimentalApi: false,
      optOutNotificationMethods: [],
    });
    let tail = '';
    this.fromServer.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (tail + chunk).split('\n');
      tail = lines.pop() ?? '';
      for (const line of lines) if (line) this.received.push(JSON.parse(line) as Message);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  answer(id: unknown, result: unknown): void {
    this.toServer.write(JSON.stringify({ id, result }) + '\n');
  }

  answerError(id: unknown, message: string): void {
    this.toServer.write(JSON.stringify({ id, error: { code: -32000, message } }) + '\n');
  }

  close(): void {
    this.toServer.end();
  }

  async next(match: (m: Message) => boolean): Promise<Message> {
    for (;;) {
      const found = this.received.find(match);
      if (found) return found;
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  requests(): Message[] {
    return this.received.filter((m) => m.method && m.id !== undefined);
  }

  notes(method: string): Message[] {
    return this.received.filter((m) => m.method === method && m.id === undefined);
  }
}

const THREAD = 'thread-1';
/** The active flags the client saw after the turn made the thread active. */
const flagsSeen = (client: TestClient) =>
  client
    .notes('thread/status/changed')
    .slice(1)
    .map((m) => (m.params!.status as { activeFlags?: string[] }).activeFlags);

function setUp(clients = 1) {
  const logLines: string[] = [];
  const loaded = new LoadedThreads((threadId) => new LoadedThread(threadId));
  const log = createLogger('debug', (line) => logLines.push(line));
  const home = tempDir('threadline-approvals-');
  const approvals = new Approvals(loaded, log, new ExecpolicyRules(home, log));
  const peers = Array.from({ length: clients }, () => new TestClient(logLines));
  for (const peer of peers) loaded.subscribe(THREAD, peer.connection);
  loaded.setStatus(THREAD, { type: 'active', activeFlags: [] });
  const notifier: Notifier = { notify: (method, params) => loaded.notify(THREAD, method, params) };
  const journal = {
    turnStarted: async () => {},
    itemCompleted: async () => {},
    modelEntries: async () => {},
    compacted: async () => {},
    tokensUsed: async () => {},
    turnCompleted: async () => {},
    oweTurnCompleted: () => {},
  };
  const turn = new ActiveTurn(new TurnEmitter(THREAD, 'turn-1', notifier, journal));
  return {
    loaded,
    approvals,
    peers,
    turn,
    gate: approvals.gateFor(turn, loaded.get(THREAD)!.grants),
    logLines,
    home,
  };
}

let gitStatus: CommandLine;
before(async () => {
  gitStatus = await parseCommandLine('git status --short');
});

const question = {
  itemId: 'item-1',
  command: 'git status --short',
  get line() {
    return gitStatus;
  },
  unsandboxed: false,
  cwd: '/repo',
  commandActions: [{ type: 'unknown' as const, command: 'git status --short' }],
  reason: null,
};

describe('the approvals core', () => {
  it('asks every subscribed client, takes the first answer and ignores the rest with a log line', async () => {
    const { peers, gate, logLines } = setUp(2);
    const [a, b] = peers as [TestClient, TestClient];
    const pending = gate.command(question);
    const [askA, askB] = await Promise.all(
      [a, b].map((c) => c.next((m) => m.method === 'item/commandExecution/requestApproval')),
    );
    assert.deepEqual(
      { ...askA!.params, startedAtMs: 0 },
      {
        threadId: THREAD,
        turnId: 'turn-1',
        itemId: 'item-1',
        startedAtMs: 0,
        command: 'git status --short',
        cwd: '/repo',
        reason: null,
        commandActions: question.commandActions,
        availableDecisions: ['accept', 'acceptForSession', 'decline', 'cancel'],
      },
    );
    assert.deepEqual(flagsSeen(a), [['waitingOnApproval']]);
    b.answer(askB!.id, { decision: 'decline' });
    const decision = await pending;
    assert.deepEqual(decision, { outcome: 'decline', forSession: false });
    // Each client hears about its own request id; the thread shows no flag any more.
    for (const [client, ask] of [
      [a, askA],
      [b, askB],
    ] as const) {
      const resolved = await client.next((m) => m.method === 'serverRequest/resolved');
      assert.deepEqual(resolved.params, { threadId: THREAD, requestId: ask!.id });
    }
    await a.next(() => flagsSeen(a).length === 2);
    assert.deepEqual(flagsSeen(a), [['waitingOnApproval'], []]);
    a.answer(askA!.id, { decision: 'accept' });
    a.answer(askA!.id, { decision: 'accept' });
    a.answer(999, { decision: 'accept' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(logLines.filter((l) => l.includes('ignored a late answer')).length, 1);
    assert.equal(logLines.filter((l) => l.includes('unknown or already answered request')).length, 2);
  });

  it('remembers acceptForSession as the exact command line, and an execpolicy amendment for good', async () => {
    const { peers, gate, home } = setUp();
    const client = peers[0]!;
    const allowed = async (line: string) =>
      gate.commandAllowedForSession(await parseCommandLine(line), false);
    assert.equal(await allowed('git status --short'), false);
    const first = gate.command(question);
    const ask = await client.next((m) => m.method === 'item/commandExecution/requestApproval');
    client.answer(ask.id, { decision: 'acceptForSession' });
    assert.deepEqual(await first, { outcome: 'accept', forSession: true });
    assert.equal(await allowed('git status --short'), true);
    assert.equal(await allowed('git status --short .'), false);
    assert.equal(await allowed('git status'), false);

    const second = gate.command({
      ...question,
      itemId: 'item-2',
      command: 'cd app && npm test',
      line: await parseCommandLine('cd app && npm test'),
      offerAmendment: true,
    });
    const ask2 = await client.next(
      (m) => m.method === 'item/commandExecution/requestApproval' && m.params!.itemId === 'item-2',
    );
    assert.deepEqual(ask2.params!.proposedExecpolicyAmendment, ['npm', 'test']);
    assert.deepEqual((ask2.params!.availableDecisions as unknown[])[2], {
      acceptWithExecpolicyAmendment: { execpolicy_amendment: ['npm', 'test'] },
    });
    client.answer(ask2.id, {
      decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['npm', 'test'] } },
    });
    assert.equal((await second).outcome, 'accept');
    assert.equal(await allowed('npm test -- --grep x'), true);
    assert.equal(
      readFileSync(join(home, 'rules', 'default.rules'), 'utf8'),
      'prefix_rule(pattern=["npm","test"], decision="allow")\n',
    );
  });

  it('remembers a file change accepted for the session by root, or by its files', async () => {
    const { peers, gate } = setUp();
    const client = peers[0]!;
    const first = gate.fileChange({ itemId: 'f1', paths: ['/repo/a.ts'], grantRoot: '/repo/src' });
    const ask = await client.next((m) => m.method === 'item/fileChange/requestApproval');
    assert.equal(ask.params!.grantRoot, '/repo/src');
    client.answer(ask.id, { decision: 'accept', acceptSettings: { forSession: true } });
    assert.equal((await first).forSession, true);
    assert.equal(gate.filesAllowedForSession(['/repo/src/x/y.ts']), true);
    assert.equal(gate.filesAllowedForSession(['/repo/a.ts']), false);
    const second = gate.fileChange({ itemId: 'f2', paths: ['/repo/a.ts'] });
    const ask2 = await client.next(
      (m) => m.method === 'item/fileChange/requestApproval' && m.params!.itemId === 'f2',
    );
    client.answer(ask2.id, { decision: 'acceptForSession' });
    await second;
    assert.equal(gate.filesAllowedForSession(['/repo/a.ts', '/repo/src/b.ts']), true);
    assert.equal(gate.filesAllowedForSession(['/repo/b.ts']), false);
  });

  it('cancel interrupts the turn; an interrupt clears what still waits', async () => {
    const { peers, gate, turn } = setUp();
    const client = peers[0]!;
    const first = gate.command(question);
    const ask = await client.next((m) => m.method === 'item/commandExecution/requestApproval');
    client.answer(ask.id, { decision: 'cancel' });
    assert.equal((await first).outcome, 'cancel');
    assert.equal(turn.interrupted, true);

    const { peers: others, gate: gate2, turn: turn2 } = setUp();
    const other = others[0]!;
    const waiting = gate2.fileChange({ itemId: 'f', paths: ['/x'] });
    const ask2 = await other.next((m) => m.method === 'item/fileChange/requestApproval');
    turn2.interrupt();
    assert.deepEqual(await waiting, { outcome: 'cancel', forSession: false, unanswered: 'interrupted' });
    const resolved = await other.next((m) => m.method === 'serverRequest/resolved');
    assert.deepEqual(resolved.params, { threadId: THREAD, requestId: ask2.id });
    await other.next(() => flagsSeen(other).length === 2);
    assert.deepEqual(flagsSeen(other), [['waitingOnApproval'], []]);
  });

  it('declines when the only client disconnects, or when there is no client at all', async () => {
    const { peers, gate, loaded } = setUp();
    const client = peers[0]!;
    const pending = gate.command(question);
    await client.next((m) => m.method === 'item/commandExecution/requestApproval');
    client.close();
    assert.deepEqual(await pending, { outcome: 'decline', forSession: false, unanswered: 'noClient' });
    assert.equal(loaded.subscribers(THREAD).length, 0);
    assert.deepEqual(await gate.command(question), {
      outcome: 'decline',
      forSession: false,
      unanswered: 'noClient',
    });
  });

  it('takes an unreadable answer or a client error as a decline', async () => {
    const { peers, gate, logLines } = setUp();
    const client = peers[0]!;
    const pending = gate.command(question);
    const ask = await client.next((m) => m.method === 'item/commandExecution/requestApproval');
    client.answer(ask.id, { decision: 'sure' });
    assert.equal((await pending).outcome, 'decline');
    assert.ok(logLines.some((l) => l.includes('unknown decision "sure"; taken as decline')));
    const refused = gate.command({ ...question, itemId: 'item-2' });
    const ask2 = await client.next((m) => m.params?.itemId === 'item-2');
    client.answerError(ask2.id, 'no prompt available');
    assert.deepEqual(await refused, { outcome: 'decline', forSession: false, unanswered: 'noClient' });
    assert.ok(logLines.some((l) => l.includes('with an error: no prompt available')));
  });

  it('shows waitingOnUserInput for other requests, beside waitingOnApproval', async () => {
    const { peers, gate } = setUp();
    const client = peers[0]!;
    const approval = gate.command(question);
    const asked = gate.ask(
      'item/fileChange/requestApproval',
      { threadId: THREAD, turnId: 'turn-1', itemId: 'q', startedAtMs: 1 },
      'waitingOnUserInput',
    );
    const requests = await (async () => {
      await client.next((m) => m.params?.itemId === 'q');
      return client.requests();
    })();
    assert.deepEqual(flagsSeen(client), [['waitingOnApproval'], ['waitingOnApproval', 'waitingOnUserInput']]);
    client.answer(requests[1]!.id, { anything: true });
    assert.deepEqual(await asked, { answered: true, result: { anything: true }, experimentalApi: false });
    client.answer(requests[0]!.id, { decision: 'accept' });
    await approval;
    await client.next(() => flagsSeen(client).length === 4);
    assert.deepEqual(flagsSeen(client).slice(2), [['waitingOnApproval'], []]);
  });
});
