// One child process whose whole tree can be killed (its own process group on Unix; see
// processTree.ts for Windows): output captured (capped) and streamed as it comes, an optional
// timeout, and a kill that takes the whole tree, so nothing it started lives on.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { OutputBuffer } from './outputBuffer';
import { exitCodeOf, killTree, treeSpawnOptions } from './processTree';

export interface RunOptions {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Kill the group after this long; null or undefined for never. */
  timeoutMs?: number | null;
  /** Bytes of stdout+stderr kept for the result (head and tail). */
  outputCapBytes: number;
  onOutput?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  /** Written to the child's fd 3 and closed: how bubblewrap gets its seccomp program. */
  fd3?: Buffer | null;
  /** Windows: arguments as written, unquoted (cmd.exe's `/c "<line>"`). */
  windowsVerbatimArguments?: boolean;
}

export interface Exit {
  /**
   * The exit code, or on Unix 128 + the signal number when a signal ended it (Windows has only
   * codes); -1 when it never started.
   */
  exitCode: number;
  timedOut: boolean;
  killed: boolean;
  durationMs: number;
  /** Why the process could not start (a missing cwd or program). */
  spawnError?: string;
}

// Output still in the pipes after the process exits arrives soon; a background child that keeps
// them open must not hold the result forever.
const DRAIN_AFTER_EXIT_MS = 200;

export class RunningProcess {
  readonly output: OutputBuffer;
  readonly exited: Promise<Exit>;
  readonly startedAt = Date.now();
  private readonly child: ChildProcessWithoutNullStreams;
  private timedOut = false;
  private killed = false;
  private done = false;

  constructor(options: RunOptions) {
    this.output = new OutputBuffer(options.outputCapBytes);
    const [program, ...args] = options.argv;
    this.child = spawn(program!, args, {
      cwd: options.cwd,
      env: options.env,
      ...treeSpawnOptions(),
      windowsVerbatimArguments: options.windowsVerbatimArguments,
      stdio: options.fd3 ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    }) as ChildProcessWithoutNullStreams;
    this.child.stdin.on('error', () => {});
    if (options.fd3) {
      const extra = this.child.stdio[3] as NodeJS.WritableStream & NodeJS.EventEmitter;
      extra.on('error', () => {});
      extra.end(options.fd3);
    }
    const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      this.output.push(chunk);
      options.onOutput?.(chunk, stream);
    };
    this.child.stdout.on('data', take('stdout'));
    this.child.stderr.on('data', take('stderr'));
    const timer =
      options.timeoutMs !== null && options.timeoutMs !== undefined
        ? setTimeout(() => {
            this.timedOut = true;
            this.kill();
          }, options.timeoutMs)
        : undefined;
    this.exited = new Promise<Exit>((resolve) => {
      const finish = (exitCode: number, spawnError?: string) => {
        if (this.done) return;
        this.done = true;
        clearTimeout(timer);
        resolve({
          exitCode,
          timedOut: this.timedOut,
          killed: this.killed,
          durationMs: Date.now() - this.startedAt,
          ...(spawnError ? { spawnError } : {}),
        });
      };
      this.child.on('error', (error) => finish(-1, error.message));
      this.child.on('exit', (code, signal) => {
        const exitCode = exitCodeOf(code, signal);
        const drained = setTimeout(() => finish(exitCode), DRAIN_AFTER_EXIT_MS);
        this.child.on('close', () => {
          clearTimeout(drained);
          finish(exitCode);
        });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return !this.done;
  }

  write(data: string | Buffer): void {
    if (this.child.stdin.writable) this.child.stdin.write(data);
  }

  closeStdin(): void {
    this.child.stdin.end();
  }

  /** Kills the whole process tree (and, in a sandbox, everything the sandbox holds). */
  kill(): void {
    if (this.child.pid === undefined) return;
    if (!this.done) this.killed = true;
    // On Unix the group is killed before this returns; Windows' taskkill finishes on its own.
    void killTree(this.child.pid);
  }
}
