// How the server is started: the bundled dist/server.js on the editor's own runtime, or any command the
// user configured that speaks the same protocol (the reference `codex app-server`, say). Pure.
import type { ServerLaunch } from '../client/serverClient';

export interface LaunchSettings {
  /** Empty: the bundled server. */
  command: string;
  args: string[];
  /** `threadline.windows.shell`, handed to the bundled server as config.toml's `[windows] shell`. */
  windowsShell: string;
}

export interface LaunchContext {
  bundledServer: string;
  /** The extension host's runtime (Electron in desktop VS Code, Node in code-server). */
  execPath: string;
  env: NodeJS.ProcessEnv;
  /** Provider keys as their env_key variables, added to the child's environment only. */
  keys: Record<string, string>;
}

export function serverLaunch(settings: LaunchSettings, context: LaunchContext): ServerLaunch {
  const env = { ...context.env, ...context.keys };
  if (settings.command.trim()) return { command: settings.command.trim(), args: settings.args, env };
  // Electron runs as plain Node with this variable; plain Node ignores it.
  return {
    command: context.execPath,
    args: [context.bundledServer, 'app-server', ...windowsShellFlag(settings.windowsShell)],
    env: { ...env, ELECTRON_RUN_AS_NODE: '1' },
  };
}

/** A `-c` flag for the setting, the value as a TOML string (JSON's escapes are TOML's). */
function windowsShellFlag(shell: string): string[] {
  return shell.trim() ? ['-c', `windows.shell=${JSON.stringify(shell.trim())}`] : [];
}
