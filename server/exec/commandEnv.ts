// The environment commands run with, built by allowlist as config.toml's `shell_environment_policy`
// says (the reference's key and fields). The server's own environment holds provider keys and the
// editor's IPC handles (VS Code's extension host sets VSCODE_IPC_HOOK_CLI, ELECTRON_RUN_AS_NODE, an
// askpass bridge…); a command the model runs must not inherit what it has no use for.

export type EnvironmentInherit = 'core' | 'all' | 'none';

export interface ShellEnvironmentPolicy {
  /** What to start from: the core variables below, the server's whole environment, or nothing. */
  inherit: EnvironmentInherit;
  /** Skip the built-in exclusion of credential- and IPC-like names. */
  ignoreDefaultExcludes: boolean;
  /** Name patterns (`*` and `?`, any case) removed after inheriting. */
  exclude: string[];
  /** Variables set as written, after the exclusions. */
  set: Record<string, string>;
  /** When not empty, only names matching one of these patterns are kept (set ones included). */
  includeOnly: string[];
  /** Never inherited whatever the fields above say: the model providers' API key variables. */
  neverInherit: string[];
}

export const DEFAULT_SHELL_ENVIRONMENT_POLICY: ShellEnvironmentPolicy = {
  inherit: 'core',
  ignoreDefaultExcludes: false,
  exclude: [],
  set: {},
  includeOnly: [],
  neverInherit: [],
};

/**
 * What `inherit = "core"` keeps: enough for shells, compilers and locales, nothing that opens a door.
 * SHLVL as the server has it: where it is missing, bash takes node's socket stdin for an rsh
 * connection and reads ~/.bashrc first (half a second with pyenv's init, measured).
 */
const CORE = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'TMPDIR',
  'PWD',
  'SHLVL',
  'TZ',
  'LANG',
  'LANGUAGE',
  'LC_*',
];

/**
 * What Windows programs need besides PATH and TZ: the system's folders (without SystemRoot many fail
 * to start, without ComSpec and PATHEXT nothing finds `*.cmd` scripts), the user's profile and
 * temporary folders, and what describes the machine.
 */
const WINDOWS_CORE = [
  'SystemRoot',
  'SystemDrive',
  'windir',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'USERNAME',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ALLUSERSPROFILE',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'CommonProgramFiles',
  'CommonProgramFiles(x86)',
  'CommonProgramW6432',
  'HOMEDRIVE',
  'HOMEPATH',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
];

/** Names that look like credentials or handles to other processes (the reference excludes the first three). */
const DEFAULT_EXCLUDES = [
  '*KEY*',
  '*SECRET*',
  '*TOKEN*',
  '*PASSWORD*',
  '*PASSWD*',
  '*PASSPHRASE*',
  '*CREDENTIAL*',
  '*_AUTH',
  '*_AUTH_*',
  'AUTH_*',
  '*AUTHORIZATION*',
  '*COOKIE*',
  '*_PAT',
  '*ASKPASS*',
  '*DATABASE_URL*',
  '*_DSN',
  '*CONNECTION_STRING*',
  'KUBECONFIG',
  '*_SOCK',
  '*SOCKET*',
  '*IPC*',
  '*AGENT_INFO',
  'DBUS_*',
  'ELECTRON_*',
  'VSCODE_*',
  'DOCKER_HOST',
  'XDG_RUNTIME_DIR',
  'DISPLAY',
  'WAYLAND_*',
  'TMUX*',
  'THREADLINE_*',
];

/** A case-insensitive matcher for name patterns with `*` (any run) and `?` (one character). */
function namePatterns(patterns: string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false;
  const source = patterns
    .map((pattern) =>
      pattern
        .split('')
        .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
        .join(''),
    )
    .join('|');
  const regex = new RegExp(`^(?:${source})$`, 'i');
  return (name) => regex.test(name);
}

const isCore = namePatterns(CORE);
const isWindowsCore = namePatterns([...CORE, ...WINDOWS_CORE]);
const isDefaultExcluded = namePatterns(DEFAULT_EXCLUDES);

/** A variable's value; on Windows names are one variable in any case (`Path` is PATH). */
export function envValue(
  env: NodeJS.ProcessEnv,
  name: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (platform !== 'win32') return env[name];
  const upper = name.toUpperCase();
  const key = Object.keys(env).find((k) => k.toUpperCase() === upper);
  return key === undefined ? undefined : env[key];
}

/**
 * The environment for a command started in `cwd`: the policy applied to `base` in the reference's
 * order (inherit, default excludes, exclude, set, include_only), then the caller's own overrides
 * (a client's `command/exec` env: null removes a variable).
 */
export function commandEnv(
  base: NodeJS.ProcessEnv,
  policy: ShellEnvironmentPolicy,
  cwd: string,
  overrides: Record<string, string | null> = {},
  platform: NodeJS.Platform = process.platform,
): NodeJS.ProcessEnv {
  const windows = platform === 'win32';
  const core = windows ? isWindowsCore : isCore;
  const env: NodeJS.ProcessEnv = {};
  // On Windows a variable set as `PATH` replaces an inherited `Path`, not a second copy beside it.
  const remove = (name: string) => {
    if (!windows) delete env[name];
    else for (const key of Object.keys(env)) if (key.toUpperCase() === name.toUpperCase()) delete env[key];
  };
  const assign = (name: string, value: string) => {
    remove(name);
    env[name] = value;
  };
  const never = new Set(policy.neverInherit.map((name) => name.toUpperCase()));
  const excluded = namePatterns(policy.exclude);
  if (policy.inherit !== 'none') {
    // PWD names where the command starts, not where the server did.
    for (const [name, value] of Object.entries({ ...base, PWD: cwd })) {
      if (value === undefined || never.has(name.toUpperCase())) continue;
      if (policy.inherit === 'core' && !core(name)) continue;
      if (!policy.ignoreDefaultExcludes && isDefaultExcluded(name)) continue;
      if (excluded(name)) continue;
      env[name] = value;
    }
  }
  for (const [name, value] of Object.entries(policy.set)) assign(name, value);
  if (policy.includeOnly.length > 0) {
    const included = namePatterns(policy.includeOnly);
    for (const name of Object.keys(env)) if (!included(name)) delete env[name];
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) remove(name);
    else assign(name, value);
  }
  return env;
}
