// A command that prints 200 MB, through the real server: it completes, its clients are sent a few
// MiB of it and one notice, the item keeps its beginning and end and says how much was cut, and the
// model reads a bounded report. command/exec streaming is held to the same budget.
import { strict as assert } from 'node:assert';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startThread, startTurn, turnCompleted } from '../support/agent';
import { commandItems, execCall } from '../support/commands';
import { useServers } from '../support/serverProcess';

const FLOOD_BYTES = 200_000_000;
const FLOOD = `head -c ${FLOOD_BYTES} /dev/zero | tr '\\0' x`;
// The streaming budget (server/exec/streamCapture.ts), stated here so that a change is a decision.
const STREAM_BUDGET = 4 * 1024 * 1024;

describe('a command that prints 200 MB', function () {
  this.timeout(120_000);
  const model = useModelServer();
  const start = useServers();

  it('streams a few MiB of it and one notice; the item and the model get its capped output', async () => {
    model.script(...execCall({ cmd: FLOOD }));
    const server = await start(agentHome('responses', model.baseUrl), 'threadline_vscode', agentEnv);
    const threadId = await startThread(server);
    await server.call('thread/resume', {
      threadId,
      approvalPolicy: 'never',
      sandbox: 'danger-full-access',
    });
    const turn = await startTurn(server, threadId, 'flood');
    assert.equal((await turnCompleted(server, turn.id, 100_000)).status, 'completed');

    // Deltas waiting for the test to read them may have been joined (the notice with the rest).
    const shown = server
      .notifications('item/commandExecution/outputDelta')
      .map((m) => (m.params as { delta: string }).delta)
      .join('');
    const notices = [
      ...shown.matchAll(/\[Threadline stopped showing this command's output live[^\]]*\]\n$/g),
    ];
    assert.equal(notices.length, 1, 'one notice, at the end');
    assert.match(notices[0]![0], /after 4 MiB; the command goes on/);
    const streamed = shown.slice(0, notices[0]!.index).trimEnd();
    assert.ok(streamed.length <= STREAM_BUDGET, `${streamed.length} bytes streamed`);
    assert.ok(streamed.length > STREAM_BUDGET / 2, 'the budget is used, not skipped');
    // Only x: a search for any other character (`^x+$` over 4 MiB can overflow the regexp's backtrack stack).
    assert.equal(/[^x]/.exec(streamed)?.index, undefined, 'nothing but x');

    const [item] = commandItems(server, turn.id);
    assert.equal(item!.exitCode, 0);
    assert.ok(item!.aggregatedOutput!.length <= 1024 * 1024 + 200, 'the item is capped');
    assert.match(item!.aggregatedOutput!, /bytes of output cut; 200000000 in all/);

    const report = JSON.stringify(model.requests[1]!.body);
    assert.ok(report.length < 200_000, `the model was sent ${report.length} bytes`);
    assert.match(report, /Process exited with code 0/);
  });

  it('holds command/exec streaming to the budget, even with disableOutputCap, and says where it cut', async () => {
    const server = await start();
    const result = await server.call('command/exec', {
      command: ['sh', '-c', FLOOD],
      processId: 'flood',
      streamStdoutStderr: true,
      disableOutputCap: true,
      disableTimeout: true,
      sandboxPolicy: { type: 'dangerFullAccess' },
    });
    assert.deepEqual(result, { exitCode: 0, stdout: '', stderr: '' });
    const pieces = server
      .notifications('command/exec/outputDelta')
      .map((m) => m.params as { stream: string; deltaBase64: string; capReached: boolean });
    const bytes = pieces.reduce((sum, piece) => sum + Buffer.from(piece.deltaBase64, 'base64').length, 0);
    assert.equal(bytes, STREAM_BUDGET);
    assert.deepEqual(
      pieces.map((piece) => piece.capReached),
      [...pieces.slice(1).map(() => false), true],
    );
  });
});
