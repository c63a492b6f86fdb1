// Commands a client runs directly: command/exec (a standalone process, no thread) with its
// follow-ups, a user's shell command in a thread, and stopping a thread's background terminals.
import { Type } from '@sinclair/typebox';
import { SandboxPolicyInput } from './enums';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';

const TerminalSize = Type.Object({ cols: Type.Integer({ minimum: 0 }), rows: Type.Integer({ minimum: 0 }) });

export const CommandExecParams = Params({
  command: Type.Array(Type.String()),
  cwd: Opt(Type.String()),
  env: Opt(Type.Record(Type.String(), Nullable(Type.String()))),
  processId: Opt(Type.String()),
  sandboxPolicy: Opt(SandboxPolicyInput),
  timeoutMs: Opt(Type.Integer({ minimum: 0 })),
  disableTimeout: Type.Optional(Type.Boolean()),
  outputBytesCap: Opt(Type.Integer({ minimum: 0 })),
  disableOutputCap: Type.Optional(Type.Boolean()),
  streamStdin: Type.Optional(Type.Boolean()),
  streamStdoutStderr: Type.Optional(Type.Boolean()),
  tty: Type.Optional(Type.Boolean()),
  size: Opt(TerminalSize),
});
export const CommandExecResponse = Shape({
  exitCode: Type.Integer(),
  stdout: Type.String(),
  stderr: Type.String(),
});

const ProcessId = { processId: Type.String() };
export const CommandExecWriteParams = Params({
  ...ProcessId,
  deltaBase64: Opt(Type.String()),
  closeStdin: Type.Optional(Type.Boolean()),
});
export const CommandExecResizeParams = Params({ ...ProcessId, size: TerminalSize });
export const CommandExecTerminateParams = Params(ProcessId);

export const ThreadShellCommandParams = Params({
  threadId: Type.String({ minLength: 1 }),
  command: Type.String(),
  timeoutMs: Opt(Type.Integer({ minimum: 0 })),
});
export const ThreadBackgroundTerminalsCleanParams = Params({ threadId: Type.String({ minLength: 1 }) });

export const commandNotifications = {
  'command/exec/outputDelta': Shape({
    processId: Type.String(),
    stream: StringEnum(['stdout', 'stderr']),
    deltaBase64: Type.String(),
    capReached: Type.Boolean(),
  }),
} as const;
