// The environment commands get: each shell_environment_policy field as docs/sandbox.md documents it, read
// from a real config table, applied to an environment full of credentials and IPC handles.
import { strict as assert } from 'node:assert';
import { fromTable } from '../../../../server/config/configFile';
import { commandEnv } from '../../../../server/exec/commandEnv';
import { createLogger } from '../../../../server/log';
import { LEAKY } from '../../../support/leakyEnv';

const ORDINARY = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/me',
  USER: 'me',
  SHELL: '/bin/bash',
  TERM: 'xterm-256color',
  TMPDIR: '/tmp/me',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'C.UTF-8',
  PWD: '/where/the/server/started',
};
const OTHER = { NODE_ENV: 'test', GIT_AUTHOR_NAME: 'Me', MY_SETTING: '1' };
const base = { ...ORDINARY, ...OTHER, ...LEAKY, CUSTOM_LLM: 'sk-custom' };
const cwd = '/work/repo';

function policy(toml: Record<string, unknown> = {}) {
  const lines: string[] = [];
  const config = fromTable(
    {
      model_providers: { mine: { base_url: 'http://llm:1', env_key: 'CUSTOM_LLM' } },
      ...(Object.keys(toml).length ? { shell_environment_policy: toml } : {}),
    },
    createLogger('trace', (line) => lines.push(line)),
  );
  return { policy: config.shellEnvironment, warnings: lines.filter((l) => / WARN /.test(l)) };
}

const names = (env: NodeJS.ProcessEnv) => Object.keys(env).sort();

describe('shell_environment_policy', () => {
  it('by default keeps the core variables only, with PWD where the command starts', () => {
    const env = commandEnv(base, policy().policy, cwd);
    assert.deepEqual(env, { ...ORDINARY, PWD: cwd });
  });

  it('inherit = "all" keeps the rest but still drops every credential- and IPC-like name', () => {
    const env = commandEnv(base, policy({ inherit: 'all' }).policy, cwd);
    assert.deepEqual(env, { ...ORDINARY, ...OTHER, PWD: cwd });
  });

  it('ignore_default_excludes lets them through, except the providers’ keys, which never are', () => {
    const env = commandEnv(base, policy({ inherit: 'all', ignore_default_excludes: true }).policy, cwd);
    const expected = { ...ORDINARY, ...OTHER, ...LEAKY, PWD: cwd } as Record<string, string>;
    for (const key of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY']) delete expected[key];
    assert.deepEqual(env, expected);
    assert.equal(env.CUSTOM_LLM, undefined, 'a configured provider’s env_key');
  });

  it('inherit = "none" starts empty; set adds variables as written', () => {
    const env = commandEnv(base, policy({ inherit: 'none', set: { CI: '1', PATH: '/opt/bin' } }).policy, cwd);
    assert.deepEqual(env, { CI: '1', PATH: '/opt/bin' });
  });

  it('exclude removes names by pattern, any case', () => {
    const env = commandEnv(base, policy({ exclude: ['lc_*', 'TER?'] }).policy, cwd);
    assert.deepEqual(names(env), ['HOME', 'LANG', 'PATH', 'PWD', 'SHELL', 'TMPDIR', 'USER']);
  });

  it('include_only keeps only matching names, set ones included', () => {
    const { policy: p } = policy({
      inherit: 'all',
      include_only: ['PATH', 'GIT_*'],
      set: { GIT_X: '1', Y: '2' },
    });
    assert.deepEqual(commandEnv(base, p, cwd), { PATH: ORDINARY.PATH, GIT_AUTHOR_NAME: 'Me', GIT_X: '1' });
  });

  it("a client's own env overrides come last (null removes)", () => {
    const env = commandEnv(base, policy().policy, cwd, { HOME: null, EXTRA: 'x' });
    assert.equal(env.HOME, undefined);
    assert.equal(env.EXTRA, 'x');
  });

  it('a field it cannot use is named, and never widens the environment', () => {
    const bad = policy({ inherit: 'everything', exclude: 'HOME', set: { A: 1 }, filters: {} });
    assert.equal(bad.policy.inherit, 'none', 'an unusable exclude inherits nothing');
    assert.deepEqual(commandEnv(base, bad.policy, cwd), {});
    assert.equal(bad.warnings.length, 3, bad.warnings.join('\n'));
    const list = policy({ include_only: [1] });
    assert.deepEqual(commandEnv(base, list.policy, cwd), {});
  });
});

describe('shell_environment_policy on Windows', () => {
  // As Windows keeps them: the names in the case they were set, `Path` among them.
  const WINDOWS = {
    Path: 'C:\\Windows\\system32;C:\\Program Files\\nodejs',
    SystemRoot: 'C:\\Windows',
    SystemDrive: 'C:',
    windir: 'C:\\Windows',
    ComSpec: 'C:\\Windows\\system32\\cmd.exe',
    PATHEXT: '.COM;.EXE;.BAT;.CMD',
    TEMP: 'C:\\Users\\me\\AppData\\Local\\Temp',
    TMP: 'C:\\Users\\me\\AppData\\Local\\Temp',
    USERPROFILE: 'C:\\Users\\me',
    USERNAME: 'me',
    APPDATA: 'C:\\Users\\me\\AppData\\Roaming',
    LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
    ProgramData: 'C:\\ProgramData',
    ALLUSERSPROFILE: 'C:\\ProgramData',
    ProgramFiles: 'C:\\Program Files',
    'ProgramFiles(x86)': 'C:\\Program Files (x86)',
    ProgramW6432: 'C:\\Program Files',
    CommonProgramFiles: 'C:\\Program Files\\Common Files',
    'CommonProgramFiles(x86)': 'C:\\Program Files (x86)\\Common Files',
    CommonProgramW6432: 'C:\\Program Files\\Common Files',
    HOMEDRIVE: 'C:',
    HOMEPATH: '\\Users\\me',
    NUMBER_OF_PROCESSORS: '8',
    PROCESSOR_ARCHITECTURE: 'AMD64',
    OS: 'Windows_NT',
  };
  const OTHER_WINDOWS = { COMPUTERNAME: 'DESK', LOGONSERVER: '\\\\DC', OneDrive: 'C:\\Users\\me\\OneDrive' };
  const winBase = {
    ...WINDOWS,
    ...OTHER_WINDOWS,
    ...LEAKY,
    custom_llm: 'sk-custom',
    Openai_Api_Key: 'sk-mixed',
  };
  const winCwd = 'C:\\repo';

  it('keeps what Windows programs need by default, and nothing else', () => {
    const env = commandEnv(winBase, policy().policy, winCwd, {}, 'win32');
    assert.deepEqual(env, { ...WINDOWS, PWD: winCwd });
  });

  it('never passes a provider key, in whatever case Windows has it', () => {
    const env = commandEnv(
      winBase,
      policy({ inherit: 'all', ignore_default_excludes: true }).policy,
      winCwd,
      {},
      'win32',
    );
    for (const name of ['custom_llm', 'Openai_Api_Key', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'])
      assert.equal(env[name], undefined, name);
    assert.equal(env.COMPUTERNAME, 'DESK');
  });

  it('takes a name in any case as the one variable it is there (PATH sets Path)', () => {
    const { policy: p } = policy({ set: { PATH: 'C:\\only' } });
    const env = commandEnv(winBase, p, winCwd, { temp: null, Tmp: 'D:\\tmp' }, 'win32');
    assert.equal(env.PATH, 'C:\\only');
    assert.equal(env.Path, undefined, 'no second copy beside the one set');
    assert.equal(env.TEMP, undefined);
    assert.deepEqual([env.TMP, env.Tmp], [undefined, 'D:\\tmp']);
  });

  it('leaves Unix as it was: the Windows names are not core there, and `path` is not `PATH`', () => {
    const windowsOnly = Object.fromEntries(Object.entries(WINDOWS).filter(([name]) => name !== 'Path'));
    const env = commandEnv(
      { ...ORDINARY, ...windowsOnly },
      policy({ set: { path: '/x' } }).policy,
      cwd,
      {},
      'linux',
    );
    assert.deepEqual(env, { ...ORDINARY, PWD: cwd, path: '/x' });
  });
});
