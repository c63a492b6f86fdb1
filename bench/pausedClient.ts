// A WebSocket client that stops reading during a long answer, while a second client runs a small
// turn: the server's peak RSS growth, the second client's turn time against its time on an idle
// server, and what became of the paused client (disconnected, or how much it was still owed).
// Usage: npx tsx bench/pausedClient.ts [deltas, default 40000] [chars per delta, default 64]  (build first)
// Compare another build with BENCH_SERVER=/other/dist/server.js.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { benchServer, rssMiB } from './rpcChild';
import { startModelServer } from '../test/fixtures/modelServer/server';
import { agentEnv, agentHome } from '../test/support/agent';

const deltas = Number(process.argv[2] ?? 40_000);
const deltaChars = Number(process.argv[3] ?? 64);

const peakRssMiB = (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/** A bare JSON-RPC client over one WebSocket: calls by id, waits for a notification by method. */
async function wsClient(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waiting = new Map<number | string, (message: Message) => void>();
  let received = 0;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message;
    received++;
    const key = message.id ?? (message.method === 'turn/completed' ? 'turn/completed' : undefined);
    if (key !== undefined) waiting.get(key)?.(message);
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let next = 1;
  const call = (method: string, params: object) =>
    new Promise<Message>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  const turnCompleted = () => new Promise<Message>((resolve) => waiting.set('turn/completed', resolve));
  await call('initialize', { clientInfo: { name: 'bench', version: '0' }, capabilities: {} });
  socket.send('{"method":"initialized"}');
  return { socket, call, turnCompleted, closed, received: () => received };
}

type Client = Awaited<ReturnType<typeof wsClient>>;

async function timedTurn(client: Client, threadId: string): Promise<number> {
  const start = performance.now();
  const completed = client.turnCompleted();
  await client.call('turn/start', { threadId, input: [{ type: 'text', text: 'small' }] });
  await completed;
  return performance.now() - start;
}

async function startServer(baseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [benchServer, 'app-server', '--listen', 'ws://127.0.0.1:0'], {
    env: {
      ...process.env,
      ...agentEnv,
      THREADLINE_HOME: agentHome('responses', baseUrl),
      THREADLINE_LOG: 'info',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve) =>
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (ws:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    }),
  );
  child.stderr!.on('data', (chunk) => {
    const disconnect = /connection \d+: .*(slow|not reading).*/.exec(String(chunk));
    if (disconnect) console.log(`server log: ${disconnect[0]}`);
  });
  return { child, url };
}

async function main() {
  const model = await startModelServer();
  const { child, url } = await startServer(model.baseUrl);
  const pid = child.pid!;
  const other = await wsClient(url);
  const paused = await wsClient(url);
  const otherThread = ((await other.call('thread/start', {})).result!.thread as { id: string }).id;
  const pausedThread = ((await paused.call('thread/start', {})).result!.thread as { id: string }).id;

  const idleRuns: number[] = [];
  for (let i = 0; i < 3; i++) {
    model.script({ output: [{ text: 'short answer' }] });
    idleRuns.push(await timedTurn(other, otherThread));
  }
  const idleMs = Math.min(...idleRuns);
  const baseRss = rssMiB(pid);

  const piece = 'x'.repeat(Math.max(1, deltaChars - 1)) + ' ';
  model.script({ output: [{ text: Array.from({ length: deltas }, () => piece) }] });
  model.script({ output: [{ text: 'short answer' }] });
  await paused.call('turn/start', { threadId: pausedThread, input: [{ type: 'text', text: 'long' }] });
  paused.socket.pause();
  // Let the long answer fill the paused client's buffers before the other client asks.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const busyMs = await timedTurn(other, otherThread);

  // The long answer may still be streaming: wait for it to end (its deltas stop growing RSS).
  const disconnected = await Promise.race([
    paused.closed.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
  ]);
  const peak = peakRssMiB(pid);
  console.log(
    `${deltas} deltas of ${deltaChars} chars (${((deltas * deltaChars) / 2 ** 20).toFixed(1)} MiB of text) to a paused client:` +
      ` server RSS ${baseRss.toFixed(0)} → peak ${peak.toFixed(0)} MiB (+${(peak - baseRss).toFixed(0)});` +
      ` the paused client was ${disconnected ? 'disconnected' : 'kept (still paused after 15 s)'}`,
  );
  console.log(
    `other client's small turn: ${busyMs.toFixed(0)} ms meanwhile, ${idleMs.toFixed(0)} ms idle` +
      ` (${(busyMs / idleMs).toFixed(1)}×)   targets: ≤ +64 MiB, ≤ 2×`,
  );
  paused.socket.terminate();
  other.socket.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await model.close();
}

void main();
