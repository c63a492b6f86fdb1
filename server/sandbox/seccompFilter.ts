// The seccomp program bubblewrap installs before it runs a command (`--seccomp FD`), written as
// classic BPF here so no native addon is needed. Why: a mount and network namespace do not stop a
// command from connect()ing to a Unix socket it can see on the filesystem (D-Bus, docker.sock, the
// ssh agent, VS Code's IPC hook), and seccomp cannot read the path a connect() names, so the filter
// refuses to create the sockets instead:
// - socket(AF_UNIX) always; with the network off, every family but AF_INET, AF_INET6 and AF_NETLINK
//   (those only see the sandbox's own empty network namespace; AF_VSOCK and the like would not);
// - socketpair() of datagram sockets (one end could be connect()ed to a host datagram socket such as
//   the journal's); stream and seqpacket pairs are connected for good, and `node`, `git` and every
//   pipe-using program need them;
// - io_uring, which creates and connects sockets without the socket() and connect() syscalls;
// - syscalls of another ABI, whose numbers this program does not check: x32 ones are refused, and a
//   32-bit one (i386, arm) kills the process.

/** Architectures the filter knows the syscall numbers of; elsewhere bubblewrap is not trusted alone. */
const ARCHES = {
  x64: { audit: 0xc000003e, socket: 41, socketpair: 53, foreignAbiFrom: 0x40000000 },
  arm64: { audit: 0xc00000b7, socket: 198, socketpair: 199, foreignAbiFrom: null },
} as const;

const IO_URING = [425, 426, 427]; // io_uring_setup, io_uring_enter, io_uring_register: same on both

const AF_UNIX = 1;
const AF_INET = 2;
const AF_INET6 = 10;
const AF_NETLINK = 16;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;
const SOCK_TYPE_MASK = 0xf; // without SOCK_NONBLOCK and SOCK_CLOEXEC

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const retErrno = (errno: number) => 0x00050000 | errno;
const EPERM = 1;
const ENOSYS = 38;

// struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian hosts).
const NR = 0;
const ARCH = 4;
const argLow = (index: number) => 16 + 8 * index;

type Insn =
  | { op: 'load'; offset: number }
  | { op: 'and'; mask: number }
  | { op: 'jump'; test: 'eq' | 'ge'; value: number; then: string; else?: string }
  | { op: 'return'; value: number }
  | { op: 'label'; name: string };

const BPF_LD_W_ABS = 0x20;
const BPF_ALU_AND_K = 0x54;
const BPF_JMP_JEQ_K = 0x15;
const BPF_JMP_JGE_K = 0x35;
const BPF_RET_K = 0x06;

/** Encodes the program as struct sock_filter records; jumps go to labels, else to the next insn. */
function assemble(program: Insn[]): Buffer {
  const code = program.filter((insn) => insn.op !== 'label');
  const labels = new Map<string, number>();
  let index = 0;
  for (const insn of program) {
    if (insn.op === 'label') labels.set(insn.name, index);
    else index++;
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((insn, pc) => {
    const offsetTo = (label: string | undefined) => {
      if (label === undefined) return 0;
      const target = labels.get(label);
      if (target === undefined || target <= pc || target - pc - 1 > 255) {
        throw new Error(`seccomp: bad jump to ${label}`);
      }
      return target - pc - 1;
    };
    let op = 0;
    let jt = 0;
    let jf = 0;
    let k = 0;
    if (insn.op === 'load') [op, k] = [BPF_LD_W_ABS, insn.offset];
    else if (insn.op === 'and') [op, k] = [BPF_ALU_AND_K, insn.mask];
    else if (insn.op === 'return') [op, k] = [BPF_RET_K, insn.value];
    else if (insn.op === 'jump') {
      op = insn.test === 'eq' ? BPF_JMP_JEQ_K : BPF_JMP_JGE_K;
      [jt, jf, k] = [offsetTo(insn.then), offsetTo(insn.else), insn.value];
    }
    out.writeUInt16LE(op, pc * 8);
    out.writeUInt8(jt, pc * 8 + 2);
    out.writeUInt8(jf, pc * 8 + 3);
    out.writeUInt32LE(k >>> 0, pc * 8 + 4);
  });
  return out;
}

export type SeccompArch = keyof typeof ARCHES;

export function seccompSupported(arch: string = process.arch): arch is SeccompArch {
  return Object.hasOwn(ARCHES, arch);
}

/** The filter for a sandboxed command, as the bytes bubblewrap reads from its `--seccomp` fd. */
export function seccompProgram(options: { network: boolean; arch?: SeccompArch }): Buffer {
  const arch = ARCHES[options.arch ?? (process.arch as SeccompArch)];
  if (!arch) throw new Error(`no seccomp filter for ${process.arch}`);
  const is = (value: number, then: string): Insn => ({ op: 'jump', test: 'eq', value, then });
  const allowedFamilies = options.network
    ? [is(AF_UNIX, 'deny'), { op: 'return', value: RET_ALLOW } as const]
    : [
        is(AF_INET, 'allow'),
        is(AF_INET6, 'allow'),
        is(AF_NETLINK, 'allow'),
        { op: 'return', value: retErrno(EPERM) } as const,
      ];
  return assemble([
    { op: 'load', offset: ARCH },
    { op: 'jump', test: 'eq', value: arch.audit, then: 'native', else: 'kill' },
    { op: 'label', name: 'native' },
    { op: 'load', offset: NR },
    ...(arch.foreignAbiFrom === null
      ? []
      : [{ op: 'jump', test: 'ge', value: arch.foreignAbiFrom, then: 'deny' } as const]),
    is(arch.socket, 'socket'),
    is(arch.socketpair, 'socketpair'),
    ...IO_URING.map((nr) => is(nr, 'nosys')),
    { op: 'return', value: RET_ALLOW },
    { op: 'label', name: 'socket' },
    { op: 'load', offset: argLow(0) },
    ...allowedFamilies,
    { op: 'label', name: 'socketpair' },
    { op: 'load', offset: argLow(1) },
    { op: 'and', mask: SOCK_TYPE_MASK },
    is(SOCK_STREAM, 'allow'),
    is(SOCK_SEQPACKET, 'allow'),
    { op: 'label', name: 'deny' },
    { op: 'return', value: retErrno(EPERM) },
    { op: 'label', name: 'allow' },
    { op: 'return', value: RET_ALLOW },
    { op: 'label', name: 'nosys' },
    { op: 'return', value: retErrno(ENOSYS) },
    { op: 'label', name: 'kill' },
    { op: 'return', value: RET_KILL_PROCESS },
  ]);
}
