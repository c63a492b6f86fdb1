// A command that prints 200 MB: the server's peak RSS growth while it runs, the bytes of
// outputDelta the client is sent, and how big the item's aggregatedOutput and the model's copy are.
// Once with a client that reads, once with one that stops reading while the command runs.
// Usage: npx tsx bench/commandFlood.ts [bytes, default 200000000]  (build first)
// Compare another build with BENCH_SERVER=/other/dist/server.js.
import { performance } from 'node:perf_hooks';
import { benchServer, peakRssMiB, rpcChild } from './rpcChild';
import { startModelServer, type ModelServer } from '../test/fixtures/modelServer/server';
import { agentEnv, agentHome } from '../test/support/agent';
import { execCall } from '../test/support/commands';

const bytes = Number(process.argv[2] ?? 200_000_000);

const mib = (n: number) => (n / 2 ** 20).toFixed(1);

/** One server; `pausing`: the client stops reading its output while the command runs. */
async function flood(model: ModelServer, pausing: boolean) {
  const server = rpcChild(process.execPath, [benchServer, 'app-server'], {
    ...agentEnv,
    THREADLINE_HOME: agentHome('responses', model.baseUrl),
    THREADLINE_LOG: 'error',
  });
  const { child } = server;
  let deltaBytes = 0;
  let deltas = 0;
  let aggregated = '';
  server.listen((message) => {
    const params = message.params as {
      delta?: string;
      item?: { type: string; aggregatedOutput?: string | null };
    };
    if (message.method === 'item/commandExecution/outputDelta') {
      deltas++;
      deltaBytes += Buffer.byteLength(params.delta!);
    }
    if (message.method === 'item/completed' && params.item?.type === 'commandExecution') {
      aggregated = params.item.aggregatedOutput ?? '';
    }
  });
  await server.call('initialize', { clientInfo: { name: 'bench', version: '0' }, capabilities: {} });
  child.stdin.write('{"method":"initialized"}\n');
  const started = await server.call('thread/start', {
    approvalPolicy: 'never',
    sandbox: 'danger-full-access',
  });
  const { thread } = started.result as { thread: { id: string } };
  const runTurn = async (cmd: string, pause = false) => {
    model.script(...execCall({ cmd, max_output_tokens: 10_000 }));
    const asked = model.requests.length;
    const completed = server.notification('turn/completed');
    await server.call('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'run it' }] });
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
  const baseRss = server.rss();
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
  await server.stop();
}

async function main() {
  const model = await startModelServer();
  await flood(model, false);
  await flood(model, true);
  console.log('targets: ≤ +64 MiB RSS, ≤ 8 MiB of deltas');
  await model.close();
}

void main();
