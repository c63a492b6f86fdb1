// The context keys the Get Started walkthrough's steps complete on (package.json
// contributes.walkthroughs, `onContext:`). Each is set from what really happened: a provider chosen in
// the settings, the selected provider usable, a thread started, a proposed edit applied.
import * as vscode from 'vscode';
import type { ThreadlineServer } from '../server/threadlineServer';
import { onSettingsChanged, readSettings } from '../settings/settings';

export const walkthroughKeys = {
  providerChosen: 'threadline.providerChosen',
  providerReady: 'threadline.providerReady',
  threadStarted: 'threadline.threadStarted',
  editApplied: 'threadline.editApplied',
} as const;

export function setWalkthroughKey(key: keyof typeof walkthroughKeys, value: boolean): void {
  void vscode.commands.executeCommand('setContext', walkthroughKeys[key], value);
}

/**
 * Follows the settings and the server. `checkReady` asks whether the selected provider can take a
 * turn (and sets providerReady itself); it runs when the server is (re)started, as it is after a
 * sign-in, and when the provider setting changes.
 */
export function walkthroughProgress(
  server: ThreadlineServer,
  checkReady: () => Promise<unknown>,
): vscode.Disposable[] {
  const check = () => void checkReady().catch((e: Error) => server.log.warn(`setup check: ${e.message}`));
  const chosen = () => setWalkthroughKey('providerChosen', readSettings().modelProvider !== '');
  chosen();
  return [
    onSettingsChanged(['modelProvider'], () => (chosen(), check())),
    server.onStateChange((state) => state === 'ready' && check()),
    server.onNotification('thread/started', () => setWalkthroughKey('threadStarted', true)),
    server.onNotification('item/completed', ({ item }) => {
      if (item.type === 'fileChange' && item.status === 'completed') setWalkthroughKey('editApplied', true);
    }),
  ];
}
