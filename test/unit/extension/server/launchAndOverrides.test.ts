import { strict as assert } from 'node:assert';
import { serverLaunch } from '../../../../extension/server/launch';
import { fromTable } from '../../../../server/config/configFile';
import { sessionFlagsTable } from '../../../../server/config/sessionFlags';
import { createLogger } from '../../../../server/log';
import {
  threadOverrides,
  turnOverrides,
  withinTrust,
  type ThreadlineSettings,
} from '../../../../extension/settings/overrides';

const context = {
  bundledServer: '/ext/dist/server.js',
  execPath: '/opt/editor/node',
  env: { PATH: '/usr/bin' },
  keys: { OPENAI_API_KEY: 'sk-test' },
};

describe('how the server is launched', () => {
  it('runs the bundled server on the editor runtime as plain Node, keys in its environment', () => {
    assert.deepEqual(serverLaunch({ command: '', args: [], windowsShell: '' }, context), {
      command: '/opt/editor/node',
      args: ['/ext/dist/server.js', 'app-server'],
      env: { PATH: '/usr/bin', OPENAI_API_KEY: 'sk-test', ELECTRON_RUN_AS_NODE: '1' },
    });
  });

  it('hands the bundled server the Windows shell setting as config.toml’s [windows] shell', async () => {
    const shell = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
    const { args } = serverLaunch({ command: '', args: [], windowsShell: shell }, context);
    assert.deepEqual(args.slice(0, 3), ['/ext/dist/server.js', 'app-server', '-c']);
    // As the server reads it: the flag's value, parsed as TOML, becomes the config key.
    const lines: string[] = [];
    const config = fromTable(
      await sessionFlagsTable(args.slice(3)),
      createLogger('trace', (line) => lines.push(line)),
    );
    assert.equal(config.windowsShell, shell);
    assert.deepEqual(
      lines.filter((line) => / WARN /.test(line)),
      [],
    );
  });

  it('runs a configured command with its arguments instead', () => {
    assert.deepEqual(
      serverLaunch({ command: ' codex ', args: ['app-server'], windowsShell: 'cmd' }, context),
      {
        command: 'codex',
        args: ['app-server'],
        env: { PATH: '/usr/bin', OPENAI_API_KEY: 'sk-test' },
      },
    );
  });
});

describe('settings as per-request overrides', () => {
  const unset: ThreadlineSettings = {
    modelProvider: '',
    model: '',
    reasoningEffort: '',
    approvalPolicy: '',
    sandboxMode: '',
  };

  it('sends nothing for settings left empty, so config.toml decides', () => {
    assert.deepEqual(threadOverrides(unset), {});
    assert.deepEqual(turnOverrides(unset), {});
  });

  it('maps each setting onto the field each request names it by', () => {
    const set: ThreadlineSettings = {
      modelProvider: 'ollama',
      model: 'qwen3-coder',
      reasoningEffort: 'high',
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
    };
    assert.deepEqual(threadOverrides(set), {
      modelProvider: 'ollama',
      model: 'qwen3-coder',
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
    });
    assert.deepEqual(turnOverrides(set), {
      model: 'qwen3-coder',
      effort: 'high',
      approvalPolicy: 'on-request',
      sandboxPolicy: { type: 'workspaceWrite' },
    });
  });

  it('in Restricted Mode always sends untrusted approvals and a read-only sandbox', () => {
    const open: ThreadlineSettings = {
      ...unset,
      model: 'qwen3-coder',
      approvalPolicy: 'never',
      sandboxMode: 'danger-full-access',
    };
    for (const settings of [unset, open]) {
      const restricted = withinTrust(settings, false);
      assert.deepEqual(threadOverrides(restricted), {
        ...(settings.model ? { model: settings.model } : {}),
        approvalPolicy: 'untrusted',
        sandbox: 'read-only',
      });
      assert.deepEqual(turnOverrides(restricted).sandboxPolicy, { type: 'readOnly' });
    }
    assert.deepEqual(withinTrust(open, true), open);
  });
});
