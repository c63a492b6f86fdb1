// The in-editor suites reach the running extension through what activate() returns.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ThreadlineApi } from '../../extension/main';
import type { ThreadlineServer } from '../../extension/server/threadlineServer';

export const extensionId = 'threadline-dev.threadline';

export function extension(): vscode.Extension<ThreadlineApi> {
  const found = vscode.extensions.getExtension<ThreadlineApi>(extensionId);
  assert.ok(found, `extension ${extensionId} is not loaded`);
  return found;
}

/** The extension's one shared server connection. */
export async function threadlineServer(): Promise<ThreadlineServer> {
  return (await extension().activate()).server;
}

export async function threadlineApi(): Promise<ThreadlineApi> {
  return extension().activate();
}
