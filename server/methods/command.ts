// command/exec and its follow-ups: a standalone process for the client (no thread, no turn), run
// under the given sandbox policy or the configured one. Processes belong to the connection that
// started them: their processId is the client's, and they die when the connection closes.
import { resolve } from 'node:path';
import { normalizeSandboxPolicy } from '../protocol/enums';
import { sandboxPolicyFor } from '../config/settings';
import { commandEnv } from '../exec/commandEnv';
import { RunningProcess } from '../exec/processRunner';
import { STREAMED_OUTPUT_BUDGET_BYTES, StreamCapture } from '../exec/streamCapture';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { Peer } from '../rpc/clientConnection';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { ErrorCodes, invalidParams, invalidRequest, RpcError } from '../rpc/rpcError';
import { quarantineNotice } from '../sandbox/newProtectedNames';
import { releaseSandbox, sandboxAvailability, wrapCommand } from '../sandbox/sandbox';
import type { Services } from '../services';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_OUTPUT_CAP_BYTES = 1024 * 1024;
const PTY_UNSUPPORTED = 'PTY not supported: Threadline runs commands over pipes (no terminal emulation)';

interface ClientProcess {
  process: RunningProcess;
  streamStdin: boolean;
}

/** A process by its client's id, registered before it starts so follow-ups can wait for it. */
type Registered = Promise<ClientProcess>;

export function commandHandlers(services: Services): HandlerTable {
  const running = new Map<string, Registered>();
  const watched = new WeakSet<Peer>();
  const key = (peer: Peer, processId: string) => `${peer.id}\u0000${processId}`;

  async function find(peer: Peer, processId: string): Promise<ClientProcess> {
    const found = running.get(key(peer, processId));
    if (!found) throw invalidRequest(`no running command/exec process "${processId}" on this connection`);
    return found;
  }

  function check(params: ParamsOf<'command/exec'>): void {
    if (params.command.length === 0) throw invalidParams('Invalid params: command: must not be empty');
    if (params.tty) throw invalidParams(PTY_UNSUPPORTED);
    if (params.size) throw invalidParams('Invalid params: size is only valid with tty');
    if ((params.streamStdin || params.streamStdoutStderr) && !params.processId) {
      throw invalidParams('Invalid params: streamStdin and streamStdoutStderr need a processId');
    }
    if (params.disableTimeout && params.timeoutMs !== undefined && params.timeoutMs !== null) {
      throw invalidParams('Invalid params: disableTimeout cannot be combined with timeoutMs');
    }
    if (params.disableOutputCap && params.outputBytesCap !== undefined && params.outputBytesCap !== null) {
      throw invalidParams('Invalid params: disableOutputCap cannot be combined with outputBytesCap');
    }
  }

  return {
    'command/exec': async (
      params: ParamsOf<'command/exec'>,
      { peer }: RequestContext,
    ): Promise<ResultOf<'command/exec'>> => {
      check(params);
      const processId = params.processId ?? null;
      if (processId !== null && running.has(key(peer, processId))) {
        throw invalidRequest(`processId "${processId}" is already running on this connection`);
      }
      let register: (entry: ClientProcess) => void = () => {};
      let fail: (error: Error) => void = () => {};
      if (processId !== null) {
        const registered = new Promise<ClientProcess>((resolve, reject) => {
          register = resolve;
          fail = reject;
        });
        registered.catch(() => {});
        running.set(key(peer, processId), registered);
      }
      try {
        return await execute(params, peer, processId, register);
      } finally {
        // Follow-ups still waiting for a process that never started are told so.
        fail(invalidRequest(`command/exec process "${processId}" did not start`));
        if (processId !== null) running.delete(key(peer, processId));
      }
    },

    'command/exec/write': async (params: ParamsOf<'command/exec/write'>, { peer }: RequestContext) => {
      const entry = await find(peer, params.processId);
      if (!entry.streamStdin) {
        throw invalidRequest(`process "${params.processId}" was not started with streamStdin`);
      }
      if (params.deltaBase64) entry.process.write(Buffer.from(params.deltaBase64, 'base64'));
      if (params.closeStdin) entry.process.closeStdin();
      return {};
    },

    'command/exec/resize': async () => {
      throw invalidParams(PTY_UNSUPPORTED);
    },

    'command/exec/terminate': async (
      params: ParamsOf<'command/exec/terminate'>,
      { peer }: RequestContext,
    ) => {
      (await find(peer, params.processId)).process.kill();
      return {};
    },
  };

  async function execute(
    params: ParamsOf<'command/exec'>,
    peer: Peer,
    processId: string | null,
    register: (entry: ClientProcess) => void,
  ): Promise<ResultOf<'command/exec'>> {
    const cwd = resolve(params.cwd ?? process.cwd());
    const policy = params.sandboxPolicy
      ? normalizeSandboxPolicy(params.sandboxPolicy)
      : sandboxPolicyFor((await services.config()).sandboxMode, cwd);
    const env = commandEnv(process.env, await services.commandEnvironment(), cwd, params.env ?? {});
    const wrapped = await wrapCommand(params.command, policy, cwd, env, await sandboxAvailability());
    if (wrapped.unavailable) {
      throw new RpcError(
        ErrorCodes.invalidRequest,
        `cannot confine the command as sandboxPolicy ${policy.type} asks: ${wrapped.unavailable}`,
      );
    }
    const kept = params.disableOutputCap ? null : (params.outputBytesCap ?? DEFAULT_OUTPUT_CAP_BYTES);
    const streaming = params.streamStdoutStderr === true;
    // Streamed output is capped by the streaming budget too, even with disableOutputCap: capReached
    // on the last piece tells the client the rest was cut.
    const cap = streaming ? Math.min(kept ?? Infinity, STREAMED_OUTPUT_BUDGET_BYTES) : kept;
    const captures = {
      stdout: new StreamCapture(cap, !streaming),
      stderr: new StreamCapture(cap, !streaming),
    };
    const child = new RunningProcess({
      argv: wrapped.argv,
      fd3: wrapped.fd3,
      cwd,
      env: wrapped.env,
      timeoutMs: params.disableTimeout ? null : (params.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      outputCapBytes: 1,
      onOutput: (chunk, stream) => {
        const taken = captures[stream].take(chunk);
        if (!taken || !streaming || (taken.bytes.length === 0 && !taken.capReached)) return;
        peer.notify('command/exec/outputDelta', {
          processId: processId!,
          stream,
          deltaBase64: taken.bytes.toString('base64'),
          capReached: taken.capReached,
        });
      },
    });
    if (!params.streamStdin) child.closeStdin();
    register({ process: child, streamStdin: params.streamStdin === true });
    if (!watched.has(peer)) {
      watched.add(peer);
      peer.onClose(() => {
        for (const [k, entry] of running) {
          if (k.startsWith(`${peer.id}\u0000`)) void entry.then((e) => e.process.kill());
        }
      });
    }
    const exit = await child.exited;
    const { quarantined } = await releaseSandbox(wrapped);
    if (exit.spawnError) throw invalidParams(`cannot run ${params.command[0]}: ${exit.spawnError}`);
    const moved = quarantined.length ? `\n${quarantineNotice(quarantined)}\n` : '';
    return {
      exitCode: exit.exitCode,
      stdout: captures.stdout.text(),
      stderr: captures.stderr.text() + moved,
    };
  }
}
