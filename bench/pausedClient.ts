// A WebSocket client that stops reading during a long answer, while a second client runs a small
// turn: the server's peak RSS growth, the second client's turn time against its time on an idle
// server, and whether the paused client was disconnected.
// Usage: npx tsx bench/pausedClient.ts [deltas, default 40000] [chars per delta, default 64]  (build first)
// Compare another build with BENCH_SERVER=/other/dist/server.js.
import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { benchServer, peakRssMiB, rssMiB } from './rpcChild';
import { startModelServer } from '../test/fixtures/modelServer/server';
import { agentEnv, agentHome } from '../test/support/agent';

const deltas = Number(process.argv[2] ?? 40_000);
const deltaChars = Number(process.argv[3] ?? 64);

interface Message {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/** A bare JSON-RPC client over one WebSocket: calls by id, waits for a notification by method. */
async function wsClient({ url, token }: { url: string; token: string }) {
  const socket = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waiting = new Map<number | string, (message: Message) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message;
    const key = message.id ?? (message.method === 'turn/completed' ? 'turn/completed' : undefined);
    if (key !== undefined) waiting.get(key)?.(message);
  });
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
  return { socket, call, turnCompleted };
}

type Client = Awaited<ReturnType<typeof wsClient>>;

async function timedTurn(client: Client, threadId: string): Promise<number> {
  const start = performance.now();
  const completed = client.turnCompleted();
  await client.call('turn/start', { threadId, input: [{ type: 'text', text: 'small' }] });
  await completed;
  return performance.now() - start;
}

async function startServer(
  baseUrl: string,
): Promise<{ child: ChildProcess; url: string; token: string; log: () => string }> {
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
  // The server prints the bearer token it made for this start beside where it listens.
  const [url, token] = await new Promise<[string, string]>((resolve) =>
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const url = /listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
      const token = /token: (\S+) \(also in/.exec(stderr)?.[1];
      if (url && token) resolve([url, token]);
    }),
  );
  return { child, url, token, log: () => stderr };
}

/** One server: the other client's small turn idle, during the long answer, and after it. */
async function scenario(
  baseUrl: string,
  model: Awaited<ReturnType<typeof startModelServer>>,
  pause: boolean,
) {
  const server = await startServer(baseUrl);
  const { child, log } = server;
  const pid = child.pid!;
  const other = await wsClient(server);
  const slow = await wsClient(server);
  const otherThread = ((await other.call('thread/start', {})).result!.thread as { id: string }).id;
  const slowThread = ((await slow.call('thread/start', {})).result!.thread as { id: string }).id;

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
  const slowDone = slow.turnCompleted();
  const asked = model.requests.length;
  await slow.call('turn/start', { threadId: slowThread, input: [{ type: 'text', text: 'long' }] });
  if (pause) slow.socket.pause();
  // The model answers in the order it is asked: the long answer must go to the slow client's turn.
  while (model.requests.length === asked) await new Promise((resolve) => setTimeout(resolve, 5));
  const duringMs = await timedTurn(other, otherThread);
  // The long answer has been produced once the server asks the model for the next answer... it
  // asks nothing more, so wait for the reading client's end, or a moment for the paused one's.
  if (pause) await new Promise((resolve) => setTimeout(resolve, 3000));
  else await slowDone;
  model.script({ output: [{ text: 'short answer' }] });
  const afterMs = await timedTurn(other, otherThread);
  const disconnected = /disconnected: .*/.exec(log())?.[0];
  const peak = peakRssMiB(pid);
  const ratio = (ms: number) => `${ms.toFixed(0)} ms (${(ms / idleMs).toFixed(1)}×)`;
  console.log(
    `${pause ? 'paused ' : 'reading'} client, ${deltas} deltas of ${deltaChars} chars: server RSS ${baseRss.toFixed(0)} → peak` +
      ` ${peak.toFixed(0)} MiB (+${(peak - baseRss).toFixed(0)})${pause ? (disconnected ? ` (server: ${disconnected})` : ', paused client kept') : ''};` +
      ` the other client's small turn: idle ${idleMs.toFixed(0)} ms, while the answer streams ${ratio(duringMs)},` +
      ` after it ${ratio(afterMs)}`,
  );
  slow.socket.terminate();
  other.socket.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function main() {
  const model = await startModelServer();
  await scenario(model.baseUrl, model, false);
  await scenario(model.baseUrl, model, true);
  console.log(
    'targets with the paused client: ≤ +64 MiB; the small turn within 2× idle (while the answer streams, compare with' +
      ' the reading client: the answer itself takes the CPU then)',
  );
  await model.close();
}

void main();
