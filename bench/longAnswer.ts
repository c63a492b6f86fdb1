// One turn in which the model streams a long answer (50 MB by default) in deltas of a realistic
// size: the server's peak RSS growth over its idle RSS before the turn, the answer's size, and wall
// time. The turn's deltas are read (not parsed) as fast as the pipe gives them, as an editor would;
// a second run opts out of the deltas, so it shows the turn's own cost without the output queued
// for a client that reads slower than the model streams (the connection's output budget's part).
// Usage: npx tsx bench/longAnswer.ts [MiB, default 50] [delta bytes, default 1024]  (build first;
// BENCH_NODE_FLAGS: extra node flags for the server, --cpu-prof say)
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { benchServer, peakRssMiB, rssMiB } from './rpcChild';
import { startModelServer, type ModelServer } from '../test/fixtures/modelServer/server';
import { agentEnv, agentHome } from '../test/support/agent';

const answerMiB = Number(process.argv[2] ?? 50);
const deltaBytes = Number(process.argv[3] ?? 1024);
const TARGET_MIB = 300;

/** A delta of plain prose-like ASCII, different each time so nothing can share it. */
const delta = (i: number) => `${i} `.padEnd(deltaBytes - 1, 'lorem ipsum dolor sit amet ') + '\n';

const count = Math.ceil((answerMiB * 1024 * 1024) / deltaBytes);

async function oneTurn(model: ModelServer, optOutDeltas: boolean) {
  model.script({ output: [{ text: Array.from({ length: count }, (_, i) => delta(i)) }] });
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, benchServer, 'app-server'], {
    env: {
      ...process.env,
      ...agentEnv,
      THREADLINE_HOME: agentHome('responses', model.baseUrl, { streamIdleTimeoutMs: 60_000 }),
      THREADLINE_LOG: 'error',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let nextId = 1;
  let deltaCount = 0;
  const waiting = new Map<number | string, (message: { result?: unknown; params?: unknown }) => void>();
  // Deltas are counted by their first bytes, never decoded: the bench measures the server, not its
  // own parsing. Other lines (a 50 MB completed item among them) are joined once they end.
  const DELTA = Buffer.from('{"method":"item/agentMessage/delta"');
  let partial: Buffer[] = [];
  const take = (line: Buffer) => {
    if (line.subarray(0, DELTA.length).equals(DELTA)) {
      deltaCount++;
      return;
    }
    const message = JSON.parse(line.toString('utf8'));
    waiting.get(message.id ?? message.method)?.(message);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      take(partial.length ? Buffer.concat([...partial, piece]) : piece);
      partial = [];
      start = end + 1;
    }
    if (start < chunk.length) partial.push(chunk.subarray(start));
  });
  const wait = (key: number | string) =>
    new Promise<{ result?: unknown; params?: unknown }>((resolve) => waiting.set(key, resolve));
  const call = (method: string, params: unknown) => {
    const id = nextId++;
    child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    return wait(id);
  };
  const optOut = optOutDeltas ? ['item/agentMessage/delta'] : null;
  await call('initialize', {
    clientInfo: { name: 'bench', version: '0' },
    capabilities: { optOutNotificationMethods: optOut },
  });
  child.stdin.write('{"method":"initialized"}\n');
  const { thread } = (await call('thread/start', {})).result as { thread: { id: string } };
  const idle = rssMiB(child.pid!);
  const completed = wait('turn/completed');
  const start = performance.now();
  await call('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'write a lot' }] });
  const done = (await completed).params as { turn: { status: string } };
  const wallMs = performance.now() - start;
  const peak = peakRssMiB(child.pid!);
  const read = (await call('thread/read', { threadId: thread.id, includeTurns: true })).result as {
    thread: { turns: { items: { type: string; text?: string }[] }[] };
  };
  const stored = read.thread.turns[0]!.items.find((item) => item.type === 'agentMessage')?.text?.length ?? 0;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.end();
  await exited;
  if (done.turn.status !== 'completed') throw new Error(`the turn ended ${done.turn.status}`);
  const growth = peak - idle;
  console.log(
    `long answer ${answerMiB} MiB in ${count} deltas of ${deltaBytes} B` +
      `${optOutDeltas ? ', deltas opted out' : `, ${deltaCount} deltas read`}: ` +
      `stored ${(stored / 1024 / 1024).toFixed(1)} MiB, wall ${(wallMs / 1000).toFixed(1)} s, ` +
      `idle RSS ${idle.toFixed(0)} MiB, peak RSS growth ${growth.toFixed(0)} MiB ` +
      `(${(growth / answerMiB).toFixed(1)}× the answer)   target: ≤ ${TARGET_MIB} MiB`,
  );
}

async function main() {
  const model = await startModelServer();
  await oneTurn(model, false);
  await oneTurn(model, true);
  await model.close();
}

void main();
