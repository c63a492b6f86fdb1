// A command that prints 200 MB: the server's peak RSS growth while it runs, the bytes of
// outputDelta the client is sent, and how big the item's aggregatedOutput and the model's copy are.
// Once with a client that reads, once with one that stops reading while the command runs.
// Usage: npx tsx bench/commandFlood.ts [bytes, default 200000000]  (build first)
// Compare another build with BENCH_SERVER=/other/dist/server.js.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { benchServer, rssMiB } from './rpcChild';
import { startModelServer, type ModelServer } from '../test/fixtures/modelServer/server';
import { agentEnv, agentHome } from '../test/support/agent';
import { execCall } from '../test/support/commands';

const bytes = Number(process.argv[2] ?? 200_000_000);

const peakRssMiB = (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const mib = (n: number) => (n / 2 ** 20).toFixed(1);

interface Message {
  id?: number;
  method?: string;
  params?: { delta?: string; item?: { type: string; aggregatedOutput?: string | null } };
  result?: Record<string, unknown>;
}

/** One server; `pausing`: the client stops reading its output while the command runs. */
async function flood(model: ModelServer, pausing: boolean) {
  const child = spawn(process.execPath, [benchServer, 'app-server'], {
    env: {
      ...process.env,
      ...agentEnv,
      THREADLINE_HOME: agentHome('responses', model.baseUrl),
      THREADLINE_LOG: 'error',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let buffer = '';
  let deltaBytes = 0;
  let deltas = 0;
  let aggregated = '';
  const waiting = new Map<number | string, (message: Message) => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const lines = (buffer + chunk).split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as Message;
      if (message.method === 'item/commandExecution/outputDelta') {
        deltas++;
        deltaBytes += Buffer.byteLength(message.params!.delta!);
      }
      const item = message.params?.item;
      if (message.method === 'item/completed' && item?.type === 'commandExecution') {
        aggregated = item.aggregatedOutput ?? '';
      }
      waiting.get(message.id ?? message.method!)?.(message);
    }
  });
  let nextId = 1;
  const call = (method: string, params: object) =>
    new Promise<Message>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  await call('initialize', { clientInfo: { name: 'bench', version: '0' }, capabilities: {} });
  child.stdin.write('{"method":"initialized"}\n');
  const { thread } = (await call('thread/start', { approvalPolicy: 'never', sandbox: 'danger-full-access' }))
    .result as { thread: { id: string } };
  const runTurn = async (cmd: string, pause = false) => {
    model.script(...execCall({ cmd, max_output_tokens: 10_000 }));
    const asked = model.requests.length;
    const completed = new Promise<Message>((resolve) => waiting.set('turn/completed', resolve));
    await call('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'run it' }] });
    if (pause) {
      child.stdout.pause();
      // The model is asked again once the command has ended and the server has reported it.
      while (model.requests.length < asked + 2) await new Promise((resolve) => setTimeout(resolve, 20));
      child.stdout.resume();
    }
    await completed;
  };
  // A first small command loads what every command needs (the shell parser's WebAssembly, say), so
  // that what is measured is what the flood costs.
  await runTurn('echo warm');
  deltaBytes = 0;
  deltas = 0;
  const baseRss = rssMiB(child.pid!);
  const start = performance.now();
  await runTurn(`head -c ${bytes} /dev/zero | tr '\\0' x`, pausing);
  const wallMs = performance.now() - start;
  const peak = peakRssMiB(child.pid!);
  const toModel = JSON.stringify(model.requests.at(-1)!.body).length;
  console.log(
    `${pausing ? 'paused ' : 'reading'} client, a command printing ${mib(bytes)} MiB: ${(wallMs / 1000).toFixed(1)} s, server RSS ${baseRss.toFixed(0)} → peak` +
      ` ${peak.toFixed(0)} MiB (+${(peak - baseRss).toFixed(0)}); ${deltas} outputDelta carrying ${mib(deltaBytes)} MiB;` +
      ` aggregatedOutput ${mib(aggregated.length)} MiB; the model's next request ${(toModel / 1024).toFixed(0)} KiB`,
  );
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
}

async function main() {
  const model = await startModelServer();
  await flood(model, false);
  await flood(model, true);
  console.log('targets: ≤ +64 MiB RSS, ≤ 8 MiB of deltas');
  await model.close();
}

void main();
