// One turn in which the model streams 5,000 text deltas as fast as it can: wall time from
// turn/start to turn/completed, the server's CPU time during the turn, and its peak RSS.
// Usage: npx tsx bench/turnStream.ts [deltas, default 5000] [runs, default 5]  (build first)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { benchServer, peakRssMiB } from './rpcChild';
import { startModelServer } from '../test/fixtures/modelServer/server';
import type { WireFormat } from '../test/fixtures/modelServer/scenario';
import { agentEnv, agentHome } from '../test/support/agent';

const deltas = Number(process.argv[2] ?? 5000);
const runs = Number(process.argv[3] ?? 5);
const wires = (process.env.BENCH_WIRES ?? 'responses,chat,anthropic').split(',') as WireFormat[];
const TICK_MS = 10; // /proc reports CPU time in clock ticks of 1/100 s

const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};

async function oneTurn(wire: WireFormat, baseUrl: string) {
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, benchServer, 'app-server'], {
    env: { ...process.env, ...agentEnv, THREADLINE_HOME: agentHome(wire, baseUrl), THREADLINE_LOG: 'error' },
  });
  let buffer = '';
  let nextId = 1;
  const waiting = new Map<number | string, (message: { result?: unknown; params?: unknown }) => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const lines = (buffer + chunk).split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line);
      waiting.get(message.id ?? message.method)?.(message);
    }
  });
  const wait = (key: number | string) =>
    new Promise<{ result?: unknown; params?: unknown }>((r) => waiting.set(key, r));
  const call = (method: string, params: unknown) => {
    const id = nextId++;
    child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    return wait(id);
  };
  await call('initialize', { clientInfo: { name: 'bench', version: '0' }, capabilities: {} });
  child.stdin.write('{"method":"initialized"}\n');
  const { thread } = (await call('thread/start', {})).result as { thread: { id: string } };
  const completed = wait('turn/completed');
  const cpuBefore = cpuMs(child.pid!);
  const start = performance.now();
  await call('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'stream' }] });
  const done = (await completed).params as { turn: { status: string } };
  const wallMs = performance.now() - start;
  const result = {
    wallMs,
    cpuMs: cpuMs(child.pid!) - cpuBefore,
    rss: peakRssMiB(child.pid!),
    status: done.turn.status,
  };
  child.stdin.end();
  await new Promise((r) => child.on('exit', r));
  return result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const model = await startModelServer();
  const text = Array.from({ length: deltas }, (_, i) => `w${i} `);
  for (const wire of wires) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      model.script({ output: [{ text }] });
      results.push(await oneTurn(wire, model.baseUrl));
    }
    const bad = results.filter((r) => r.status !== 'completed');
    if (bad.length) throw new Error(`${wire}: ${bad.length} turns did not complete`);
    console.log(
      `${wire.padEnd(10)} ${deltas} deltas: wall median ${median(results.map((r) => r.wallMs)).toFixed(0)} ms` +
        ` (min ${Math.min(...results.map((r) => r.wallMs)).toFixed(0)})` +
        `, server CPU median ${median(results.map((r) => r.cpuMs))} ms, peak RSS median ${median(results.map((r) => r.rss)).toFixed(1)} MiB` +
        `   targets: ≤ 260 ms, ≤ 300 ms CPU, ≤ 70 MiB`,
    );
  }
  await model.close();
}

void main();
