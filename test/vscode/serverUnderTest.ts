// Which app-server the in-editor suites drive: the bundled Threadline server, or, in the run with
// THREADLINE_TEST_CODEX (`runInCodeServer.ts --reference`), the reference `codex app-server` that the
// extension launches through its `threadline.server.command` setting. Suites written for both ask
// here for what differs: where the server keeps its config, and how the scripted model edits files.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { agentEnv } from '../support/agent';
import { threadlineApi } from './extensionApi';

/** The codex binary under test, or undefined when the suites drive our own server. */
export const codex = process.env.THREADLINE_TEST_CODEX;

/** The server's home: where it keeps threads and reads config.toml. */
export const serverHome = (): string => (codex ? process.env.CODEX_HOME! : process.env.THREADLINE_HOME!);

const settings = () => vscode.workspace.getConfiguration('threadline');

if (codex) {
  // Root hooks: every suite of the run talks to codex, as a user who set the command would.
  before(async function () {
    this.timeout(60_000);
    await settings().update('server.command', codex, vscode.ConfigurationTarget.Global);
    await settings().update('server.args', ['app-server'], vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await settings().update('server.command', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('server.args', undefined, vscode.ConfigurationTarget.Global);
  });
}

/**
 * Points the server under test at the scripted model (config.toml in its home, the key in the
 * environment its child inherits) and restarts it so it reads both.
 */
export async function useScriptedModel(baseUrl: string, topLevel: string[] = []): Promise<void> {
  writeFileSync(
    join(serverHome(), 'config.toml'),
    [
      'model = "test-model"',
      'model_provider = "scripted"',
      ...topLevel,
      '',
      '[model_providers.scripted]',
      'name = "Scripted"',
      `base_url = "${baseUrl}"`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_API_KEY"',
      'request_max_retries = 0',
      '',
    ].join('\n'),
  );
  Object.assign(process.env, agentEnv);
  const { server } = await threadlineApi();
  await server.restart();
}

/**
 * A model turn that changes files with a patch: our server offers the model an `apply_patch` tool;
 * codex offers a model it does not know only its shell, and takes a patch run there as a file change.
 */
export function patchCall(patch: string, callId = 'call_patch') {
  const toolCall = codex
    ? {
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${patch}\nEOF` }),
        callId,
      }
    : { name: 'apply_patch', arguments: patch, callId, custom: true };
  return { output: [{ toolCall }] };
}
