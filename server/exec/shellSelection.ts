// Which shell runs the model's and the user's command lines, and the argv that hands it one line.
// Unix: bash, else sh. Windows: PowerShell 7 (pwsh.exe), else Windows PowerShell (powershell.exe),
// else cmd.exe, or what config.toml's `[windows] shell` names. The approval gate reads each line in
// the grammar of the shell that will run it (commandLine.ts), so the shell is chosen once, here.
import { win32 } from 'node:path';
import { envValue } from './commandEnv';

export type ShellKind = 'bash' | 'sh' | 'pwsh' | 'powershell' | 'cmd';
/** The language a command line is read in: bash's, PowerShell's, or cmd's (which nothing reads). */
export type ShellGrammar = 'bash' | 'powershell' | 'cmd';

export interface CommandShell {
  kind: ShellKind;
  /** The program started (a full path where one was found). */
  path: string;
  grammar: ShellGrammar;
  /** What the model is told (environmentContext.ts): the shell, and for Windows shells how to write for it. */
  label: string;
}

/** What selection looks at; process.platform, process.env and existsSync in the server. */
export interface ShellHost {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  exists(path: string): boolean;
}

const GRAMMAR: Record<ShellKind, ShellGrammar> = {
  bash: 'bash',
  sh: 'bash',
  pwsh: 'powershell',
  powershell: 'powershell',
  cmd: 'cmd',
};

const POWERSHELL_HINT =
  "write PowerShell, not bash: single quotes are literal ('' is a quote inside them), double quotes expand $variables and `-escapes";
const LABEL: Record<ShellKind, string> = {
  bash: 'bash',
  sh: 'sh',
  pwsh: `PowerShell 7 (pwsh); ${POWERSHELL_HINT}`,
  powershell: `Windows PowerShell 5.1 (powershell.exe); ${POWERSHELL_HINT}; && and || do not exist, chain with ;`,
  cmd: 'cmd.exe; write cmd syntax: double quotes only, ^ escapes, %VAR% expands, chain with &&',
};

/** The shell kind a name or path stands for (`pwsh`, `C:\…\pwsh.exe`, `cmd`), if it is one we know. */
export function shellKindOf(nameOrPath: string): ShellKind | null {
  const base = win32
    .basename(nameOrPath)
    .toLowerCase()
    .replace(/\.exe$/, '');
  return base in GRAMMAR ? (base as ShellKind) : null;
}

function shell(kind: ShellKind, path: string): CommandShell {
  return { kind, path, grammar: GRAMMAR[kind], label: LABEL[kind] };
}

/** Where a Windows shell is, by PATH then its standard location; null when it is not installed. */
function findWindowsShell(kind: ShellKind, host: ShellHost): string | null {
  const env = (name: string) => envValue(host.env, name, 'win32');
  const program = `${kind}.exe`;
  const onPath = (env('PATH') ?? '')
    .split(';')
    .filter((dir) => win32.isAbsolute(dir))
    .map((dir) => win32.join(dir, program));
  const systemRoot = env('SystemRoot');
  const standard: (string | null | undefined)[] =
    kind === 'pwsh'
      ? [env('ProgramFiles') && win32.join(env('ProgramFiles')!, 'PowerShell', '7', program)]
      : kind === 'powershell'
        ? [systemRoot && win32.join(systemRoot, 'System32', 'WindowsPowerShell', 'v1.0', program)]
        : [env('ComSpec'), systemRoot && win32.join(systemRoot, 'System32', program)];
  return [...onPath, ...standard].find((path) => path && host.exists(path)) ?? null;
}

/**
 * The shell commands run in. `override` (config.toml `[windows] shell`, Windows only) is a shell's
 * name, found as above, or a path to one, taken as written.
 */
export function selectShell(host: ShellHost, override: string | null = null): CommandShell {
  if (host.platform !== 'win32')
    return host.exists('/bin/bash') ? shell('bash', '/bin/bash') : shell('sh', '/bin/sh');
  const wanted = override ? shellKindOf(override) : null;
  if (override && wanted) {
    const named = win32.basename(override) === override;
    return shell(wanted, named ? (findWindowsShell(wanted, host) ?? override) : override);
  }
  for (const kind of ['pwsh', 'powershell', 'cmd'] as const) {
    const path = findWindowsShell(kind, host);
    if (path) return shell(kind, path);
  }
  return shell('cmd', 'cmd.exe');
}

export interface ShellInvocation {
  argv: string[];
  /** cmd.exe takes its line as written after `/c`: Node must not quote it again. */
  windowsVerbatimArguments: boolean;
}

/** How one command line is run: by the shell, so pipes and quoting work as the model wrote them. */
export function shellCommand(shell: CommandShell, line: string): ShellInvocation {
  switch (shell.kind) {
    case 'pwsh':
    case 'powershell':
      return {
        argv: [shell.path, '-NoLogo', '-NoProfile', '-NonInteractive', '-Command', line],
        windowsVerbatimArguments: false,
      };
    case 'cmd':
      // `/s /c "<line>"`: cmd drops the outer quotes and runs the rest as typed (as Node's own
      // `shell: true` does); /d skips AutoRun commands from the registry.
      return { argv: [shell.path, '/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
    default:
      return { argv: [shell.path, '-c', line], windowsVerbatimArguments: false };
  }
}
