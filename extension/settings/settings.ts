// Reads Threadline's settings (contributes.configuration in package.json) with their types.
import * as vscode from 'vscode';
import type { TraceLevel } from '../server/outputLog';
import type { LaunchSettings } from '../server/launch';
import { withinTrust, type ThreadlineSettings } from './overrides';

const section = 'threadline';

function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(section);
}

/** The settings as they apply in this window: Restricted Mode overrides the policy ones. */
export function readSettings(): ThreadlineSettings {
  return withinTrust(readUserSettings(), vscode.workspace.isTrusted);
}

function readUserSettings(): ThreadlineSettings {
  const c = config();
  return {
    modelProvider: c.get<string>('modelProvider', ''),
    model: c.get<string>('model', ''),
    reasoningEffort: c.get<string>('reasoningEffort', ''),
    approvalPolicy: c.get<ThreadlineSettings['approvalPolicy']>('approvalPolicy', ''),
    sandboxMode: c.get<ThreadlineSettings['sandboxMode']>('sandboxMode', ''),
  };
}

export function readLaunchSettings(): LaunchSettings {
  const c = config();
  const args = c.get<unknown>('server.args', []);
  return {
    command: c.get<string>('server.command', ''),
    args: Array.isArray(args) ? args.map(String) : [],
    windowsShell: c.get<string>('windows.shell', ''),
  };
}

export function readTraceLevel(): TraceLevel {
  return config().get<TraceLevel>('server.trace', 'off');
}

/** Fires when any of the given settings (relative to `threadline.`) changes. */
export function onSettingsChanged(keys: string[], listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (keys.some((key) => event.affectsConfiguration(`${section}.${key}`))) listener();
  });
}

/** Writes a setting for the user (global), as the Choose provider/model command does. */
export function updateSetting(key: string, value: unknown): Thenable<void> {
  return config().update(key, value, vscode.ConfigurationTarget.Global);
}
