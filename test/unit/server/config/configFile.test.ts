// config.toml as people bring it: Codex configs full of keys we do not use, overrides of built-in
// providers, values we cannot use, and files that are not TOML at all.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../../server/config/configFile';
import { createLogger } from '../../../../server/log';
import { tempDir } from '../../../support/serverProcess';

async function load(toml?: string) {
  const home = tempDir('threadline-config-');
  if (toml !== undefined) writeFileSync(join(home, 'config.toml'), toml);
  const lines: string[] = [];
  const config = await loadConfig(
    home,
    createLogger('trace', (line) => lines.push(line.trim())),
  );
  return { config, lines, warnings: lines.filter((l) => / (WARN|ERROR) /.test(l)) };
}

describe('config.toml', () => {
  it('means built-in defaults when it is missing, without a word', async () => {
    const { config, lines } = await load();
    assert.deepEqual(config.defaults, {
      model: 'gpt-5.1-codex',
      modelProvider: 'openai',
      approvalPolicy: 'on-request',
      sandboxMode: 'workspace-write',
      reasoningEffort: null,
      reasoningSummary: null,
    });
    assert.deepEqual([...config.providers.keys()], ['openai', 'ollama', 'lmstudio', 'anthropic']);
    assert.equal(config.updatePlanTool, true);
    assert.equal(config.threadUnloadDelaySecs, null);
    assert.deepEqual(lines, []);
  });

  it('reads a Codex config, naming the keys it does not use in one line', async () => {
    const { config, lines, warnings } = await load(`
model = "qwen3-coder"
model_provider = "ollama"
model_reasoning_effort = "high"
model_reasoning_summary = "concise"
approval_policy = "on-failure"
sandbox_mode = "read-only"
thread_unload_delay_secs = 90
model_context_window = 32000
hide_agent_reasoning = true
file_opener = "vscode"
notify = ["notify-send", "Codex"]

[tools.update_plan]
enabled = false

[tools]
web_search = true

[mcp_servers.docs]
command = "npx"
args = ["docs-mcp"]

[profiles.fast]
model = "gpt-5-mini"

[shell_environment_policy]
inherit = "core"

[history]
persistence = "none"
`);
    assert.deepEqual(config.defaults, {
      model: 'qwen3-coder',
      modelProvider: 'ollama',
      approvalPolicy: 'on-request',
      sandboxMode: 'read-only',
      reasoningEffort: 'high',
      reasoningSummary: 'concise',
    });
    assert.equal(config.updatePlanTool, false);
    assert.equal(config.threadUnloadDelaySecs, 90);
    assert.equal(config.contextWindow, 32000);
    const ignored = lines.filter((l) => l.includes('ignoring keys'));
    assert.equal(ignored.length, 1, lines.join('\n'));
    for (const key of ['hide_agent_reasoning', 'file_opener', 'notify', 'profiles', 'history'])
      assert.ok(ignored[0]!.includes(key), key);
    // MCP servers are read now (server/config/mcpServers.ts), so they are not among the ignored.
    assert.ok(!ignored[0]!.includes('mcp_servers'));
    assert.deepEqual(warnings, []);
  });

  it('skips values it cannot use, with a warning each, and keeps the rest', async () => {
    const { config, warnings } = await load(`
model = 5
model_provider = "nowhere"
approval_policy = "whenever"
sandbox_mode = "toString"
thread_unload_delay_secs = -3
model_reasoning_effort = "low"
`);
    assert.equal(config.defaults.model, 'gpt-5.1-codex');
    assert.equal(config.defaults.modelProvider, 'nowhere');
    assert.equal(config.defaults.approvalPolicy, 'on-request');
    assert.equal(config.defaults.sandboxMode, 'workspace-write');
    assert.equal(config.defaults.reasoningEffort, 'low');
    assert.equal(config.threadUnloadDelaySecs, null);
    for (const text of [
      'model must be a string',
      '"nowhere" is not configured',
      'whenever',
      'toString',
      'thread_unload_delay_secs',
    ])
      assert.ok(
        warnings.some((w) => w.includes(text)),
        `${text} in\n${warnings.join('\n')}`,
      );
  });

  it('reads [windows] shell by name or path, and names one it does not know', async () => {
    const path = await load(`[windows]\nshell = 'D:\\tools\\pwsh.exe'\n`);
    assert.equal(path.config.windowsShell, 'D:\\tools\\pwsh.exe');
    assert.equal((await load(`[windows]\nshell = "cmd"\n`)).config.windowsShell, 'cmd');
    const fish = await load(`[windows]\nshell = "fish"\n`);
    assert.equal(fish.config.windowsShell, null);
    assert.match(fish.warnings.join('\n'), /windows\.shell must name pwsh, powershell or cmd/);
  });

  it('falls back to the built-ins when the file is not TOML, without echoing it', async () => {
    const { config, warnings } = await load(
      'model = "x"\n[model_providers.a]\nhttp_headers = { Authorization = "Bearer sk-secret" } oops\n',
    );
    assert.equal(config.defaults.model, 'gpt-5.1-codex');
    assert.equal(config.providers.size, 4);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /not valid TOML at line 3/);
    assert.ok(!warnings[0]!.includes('sk-secret'));
  });

  it('warns when the file cannot be read', async () => {
    const home = tempDir('threadline-config-');
    mkdirSync(join(home, 'config.toml'));
    const lines: string[] = [];
    const config = await loadConfig(
      home,
      createLogger('warn', (line) => lines.push(line)),
    );
    assert.equal(config.providers.size, 4);
    assert.match(lines.join(''), /config\.toml cannot be read \(EISDIR\).*using built-in defaults/);
  });
});
