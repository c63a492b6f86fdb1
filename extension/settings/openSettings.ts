// "Threadline: Open Settings": the server's effective config (config/read with its layers), each
// value with the layer it comes from; picking one edits it in config.toml through config/value/write.
import * as vscode from 'vscode';
import type { ConfigLayerSource } from '../../server/protocol/configMethods';
import type { ThreadlineServer } from '../server/threadlineServer';

interface Entry extends vscode.QuickPickItem {
  keyPath: string;
  value: unknown;
}

export function openSettingsCommand(server: ThreadlineServer): vscode.Disposable {
  return vscode.commands.registerCommand('threadline.openSettings', () => openSettings(server));
}

async function openSettings(server: ThreadlineServer): Promise<void> {
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  let read;
  try {
    read = await server.request('config/read', { includeLayers: true, ...(cwd ? { cwd } : {}) });
  } catch (error) {
    void vscode.window.showErrorMessage(`Threadline settings: ${(error as Error).message}`);
    return;
  }
  const entries: Entry[] = Object.entries(read.origins)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([keyPath, origin]) => {
      const value = keyPath
        .split('.')
        .reduce<unknown>((table, key) => (table as Record<string, unknown>)?.[key], read.config);
      return {
        label: keyPath,
        description: JSON.stringify(value),
        detail: `from ${describe(origin.name)}`,
        keyPath,
        value,
      };
    });
  const picked = await vscode.window.showQuickPick(entries, {
    title: 'Threadline: effective settings (pick one to change it in config.toml)',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked) return;
  const text = await vscode.window.showInputBox({
    title: `Set ${picked.keyPath} in config.toml`,
    prompt: 'A JSON value (a bare word is taken as a string); empty removes the key',
    value: typeof picked.value === 'string' ? picked.value : JSON.stringify(picked.value),
  });
  if (text === undefined) return;
  const value = text.trim() === '' ? null : parseValue(text);
  try {
    const result = await server.request('config/value/write', {
      keyPath: picked.keyPath,
      value,
      mergeStrategy: 'replace',
      expectedVersion: read.layers?.find((layer) => layer.name.type === 'user')?.version ?? null,
    });
    const note = result.overriddenMetadata ? ` (${result.overriddenMetadata.message})` : '';
    void vscode.window.showInformationMessage(
      `Threadline: ${picked.keyPath} saved to ${result.filePath}${note}`,
    );
  } catch (error) {
    void vscode.window.showErrorMessage(`Threadline: ${(error as Error).message}`);
  }
}

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function describe(source: ConfigLayerSource): string {
  switch (source.type) {
    case 'packagedDefaults':
      return 'built-in defaults';
    case 'user':
      return source.file;
    case 'project':
      return `project ${source.dotCodexFolder}`;
    case 'sessionFlags':
      return 'server -c flags';
  }
}
