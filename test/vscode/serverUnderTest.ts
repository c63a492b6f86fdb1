// Which app-server the in-editor suites drive: the bundled Threadline server, or, in the run with
// THREADLINE_TEST_CODEX (`runInCodeServer.ts --reference`), the reference `codex app-server` that the
// extension launches through its `threadline.server.command` setting. Suites written for both ask
// here for what differs: where the server keeps its config, and how the scripted model edits files.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ParamsOf } from '../../server/protocol/methods';
import { startModelServer, type ModelServer } from '../fixtures/modelServer/server';
import { agentEnv, scriptedConfig } from '../support/agent';
import { patchCall as ourPatchCall, shellPatchCall } from '../support/patches';
import { threadlineApi } from './extensionApi';
import { waitFor } from './treeHelpers';

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
  const config = scriptedConfig(baseUrl, { extraTopLevel: topLevel.join('\n'), requestMaxRetries: 0 });
  writeFileSync(join(serverHome(), 'config.toml'), config);
  Object.assign(process.env, agentEnv);
  const { server } = await threadlineApi();
  await server.restart();
}

/** A model turn that changes files with a patch, through the tool the server under test offers. */
export const patchCall = (patch: string) => (codex ? shellPatchCall(patch) : ourPatchCall(patch));

let turnsModel: ModelServer | undefined;

/**
 * Inside a describe whose threads must outlive a listing or a restart: under codex, a scripted model
 * for the turn startThread gives each thread. Our server needs none.
 */
export function modelForThreadTurns(): void {
  if (!codex) return;
  before(async function () {
    this.timeout(60_000);
    turnsModel = await startModelServer();
    await useScriptedModel(turnsModel.baseUrl, ['approval_policy = "never"']);
  });
  after(async () => {
    rmSync(join(serverHome(), 'config.toml'), { force: true });
    await turnsModel?.close();
    turnsModel = undefined;
  });
}

/**
 * Starts a thread the server keeps: ours lists and keeps a thread from its start; codex writes a thread
 * down (and lists it, and finds it after a restart) only once it has a turn, so under codex one short
 * scripted turn runs first (see modelForThreadTurns).
 */
export async function startThread(params: ParamsOf<'thread/start'>) {
  const { server } = await threadlineApi();
  const { thread } = await server.request('thread/start', params);
  if (!codex) return thread;
  let completed = false;
  const subscription = server.onNotification(
    'turn/completed',
    (p) => (completed ||= p.threadId === thread.id),
  );
  turnsModel!.script({ output: [{ text: 'Noted.' }] });
  await server.request('turn/start', { threadId: thread.id, input: [{ type: 'text', text: 'Hello' }] });
  await waitFor(() => completed, 20_000);
  subscription.dispose();
  return thread;
}

/** Inside a describe: a scripted model for its turns, approvals never asked, gone after the describe. */
export function useScriptedTurns(): () => ModelServer {
  let model: ModelServer | undefined;
  before(async function () {
    this.timeout(60_000);
    model = await startModelServer();
    await useScriptedModel(model.baseUrl, ['approval_policy = "never"']);
  });
  afterEach(() => model?.reset());
  after(async () => {
    rmSync(join(serverHome(), 'config.toml'), { force: true });
    await model?.close();
    model = undefined;
  });
  return () => model!;
}

/** One scripted turn on a new thread of the workspace; answers the thread and how its turn ended. */
export async function turnOnNewThread(
  model: ModelServer,
  response: Parameters<ModelServer['script']>[0],
  prompt = 'Go',
): Promise<{ threadId: string; status: string }> {
  const { server } = await threadlineApi();
  const cwd = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const { thread } = await server.request('thread/start', { cwd });
  let status: string | undefined;
  const subscription = server.onNotification('turn/completed', (p) => {
    if (p.threadId === thread.id) status = p.turn.status;
  });
  model.script(response);
  await server.request('turn/start', { threadId: thread.id, input: [{ type: 'text', text: prompt }] });
  await waitFor(() => status !== undefined, 20_000);
  subscription.dispose();
  return { threadId: thread.id, status: status! };
}
