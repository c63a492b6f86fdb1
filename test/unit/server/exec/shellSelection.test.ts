// Which shell runs command lines, chosen on an injected host (Windows paths and environments on
// this Linux machine), and the argv each shell is handed a line with.
import { strict as assert } from 'node:assert';
import { selectShell, shellCommand, type ShellHost } from '../../../../server/exec/shellSelection';

const PWSH = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
const POWERSHELL = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';
const CMD = 'C:\\Windows\\system32\\cmd.exe';
// Windows keeps a variable's name as it was set: `Path`, `SystemRoot`, `ComSpec`.
const WINDOWS_ENV = {
  Path: 'C:\\Windows\\system32;C:\\Windows;relative\\dir;C:\\Program Files\\Git\\cmd',
  SystemRoot: 'C:\\Windows',
  ComSpec: CMD,
  ProgramFiles: 'C:\\Program Files',
};

function windows(files: string[], env: NodeJS.ProcessEnv = WINDOWS_ENV): ShellHost {
  const present = new Set(files.map((f) => f.toLowerCase()));
  // NTFS does not care about case; the host's probe does not either.
  return { platform: 'win32', env, exists: (path) => present.has(path.toLowerCase()) };
}

describe('shell selection', () => {
  it('on Windows prefers pwsh, then Windows PowerShell, then cmd.exe, in their standard places', () => {
    assert.deepEqual(
      [
        selectShell(windows([PWSH, POWERSHELL, CMD])),
        selectShell(windows([POWERSHELL, CMD])),
        selectShell(windows([CMD])),
      ].map((s) => [s.kind, s.path, s.grammar]),
      [
        ['pwsh', PWSH, 'powershell'],
        ['powershell', POWERSHELL, 'powershell'],
        ['cmd', CMD, 'cmd'],
      ],
    );
  });

  it('finds a shell on PATH before its standard place, and skips relative PATH entries', () => {
    const onPath = 'C:\\Program Files\\Git\\cmd\\pwsh.exe';
    assert.equal(selectShell(windows([onPath, PWSH])).path, onPath);
    assert.equal(selectShell(windows(['relative\\dir\\pwsh.exe', CMD])).kind, 'cmd');
  });

  it('falls back to %SystemRoot%\\System32\\cmd.exe, and to cmd.exe by name when nothing is found', () => {
    const noComSpec = { SystemRoot: 'C:\\Windows' };
    const system32 = 'C:\\Windows\\System32\\cmd.exe';
    assert.equal(selectShell(windows([system32], noComSpec)).path, system32);
    assert.equal(selectShell(windows([], {})).path, 'cmd.exe');
  });

  it('takes the configured shell by name (found as above) or by path (as written)', () => {
    const host = windows([PWSH, POWERSHELL, CMD]);
    assert.equal(selectShell(host, 'cmd').path, CMD);
    assert.equal(selectShell(host, 'powershell.exe').path, POWERSHELL);
    const own = 'D:\\tools\\pwsh.exe';
    assert.deepEqual(selectShell(host, own).path, own);
    assert.equal(selectShell(host, own).grammar, 'powershell');
  });

  it('on Unix runs bash, or sh without it, whatever is configured for Windows', () => {
    const unix = (bash: boolean): ShellHost => ({
      platform: 'linux',
      env: {},
      exists: (path) => bash && path === '/bin/bash',
    });
    assert.deepEqual(selectShell(unix(true), 'cmd'), {
      kind: 'bash',
      path: '/bin/bash',
      grammar: 'bash',
      label: 'bash',
    });
    assert.equal(selectShell(unix(false)).path, '/bin/sh');
  });

  it('tells the model how to write for a Windows shell', () => {
    assert.match(selectShell(windows([PWSH])).label, /PowerShell 7.*single quotes/);
    assert.match(selectShell(windows([CMD])).label, /cmd\.exe.*%VAR%/);
  });

  it('hands each shell one line the way it reads one', () => {
    const line = 'git log -1 "--format=%h %s"';
    const shell = (path: string) => selectShell(windows([path]));
    assert.deepEqual(shellCommand(shell(PWSH), line), {
      argv: [PWSH, '-NoLogo', '-NoProfile', '-NonInteractive', '-Command', line],
      windowsVerbatimArguments: false,
    });
    assert.deepEqual(shellCommand(shell(CMD), line), {
      argv: [CMD, '/d', '/s', '/c', `"${line}"`],
      windowsVerbatimArguments: true,
    });
    const bash = selectShell({ platform: 'linux', env: {}, exists: () => true });
    assert.deepEqual(shellCommand(bash, line), {
      argv: ['/bin/bash', '-c', line],
      windowsVerbatimArguments: false,
    });
  });
});
