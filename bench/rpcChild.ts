// The benches' own client: a server child over stdio, requests matched to answers by id, a timed call,
// a clean stop, and the child's resident memory. Kept apart from test/support's client, which checks
// every message against the schema (work a benchmark must not time).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { serverBundle } from '../test/support/paths';

/** The server the benches run: this checkout's build, or another's (BENCH_SERVER=/other/dist/server.js) to compare. */
export const benchServer = process.env.BENCH_SERVER ?? serverBundle;

export interface Answer {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
}

const statusMiB = (pid: number, field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

export const rssMiB = (pid: number): number => statusMiB(pid, 'VmRSS');
/** The process's peak RSS so far (the kernel's high-water mark). */
export const peakRssMiB = (pid: number): number => statusMiB(pid, 'VmHWM');

export function rpcChild(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
  let buffer = '';
  const waiting = new Map<number, (answer: Answer) => void>();
  const watchers = new Set<(message: Answer) => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (buffer + chunk.toString('utf8')).split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as Answer;
      if (typeof message.id === 'number') waiting.get(message.id)?.(message);
      else for (const watch of watchers) watch(message);
    }
  });
  let next = 1;
  const call = (method: string, params: object) =>
    new Promise<Answer>((done) => {
      const id = next++;
      waiting.set(id, done);
      child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  /** The params of the next notification of `method` that `accept` takes (ask before causing it). */
  const notification = (method: string, accept: (params: Record<string, unknown>) => boolean = () => true) =>
    new Promise<Record<string, unknown>>((done) => {
      const watch = (message: Answer) => {
        if (message.method !== method || !accept(message.params ?? {})) return;
        watchers.delete(watch);
        done(message.params ?? {});
      };
      watchers.add(watch);
    });
  const timed = async (method: string, params: object) => {
    const start = performance.now();
    await call(method, params);
    return performance.now() - start;
  };
  /** Calls `watch` with every notification from now on. */
  const listen = (watch: (message: Answer) => void) => watchers.add(watch);
  /** Closes stdin and waits for the exit (killing it after 5 s). */
  const stop = async () => {
    const exited = new Promise((go) => child.once('exit', go));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return { child, call, notification, listen, timed, stop, rss: () => rssMiB(child.pid!) };
}
