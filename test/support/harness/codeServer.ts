// Starts a throwaway code-server (the VS Code workbench served to a browser, with a real Node extension
// host) on 127.0.0.1 with a random port, fresh user-data and extensions dirs, and no network access of its
// own: no gallery, telemetry, update checks or workspace trust prompts.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDirs';
import { codeServerBin } from './paths';
import { delay, withTimeout } from './timeouts';

export interface CodeServerOptions {
  /** .vsix files installed before start (what a user would have). */
  vsixFiles?: string[];
  /** Needed for the Extension Development Host URL payload; hides notification toasts. */
  smokeTestDriver?: boolean;
  startTimeoutMs?: number;
  /** Added to code-server's environment, which its extension host (and so our server child) inherits. */
  env?: NodeJS.ProcessEnv;
  /** Workspace trust on, without its prompt: every folder opens in Restricted Mode. */
  restricted?: boolean;
  /**
   * Settings of the machine the extension host runs on (user-data/Machine/settings.json): where
   * machine-scoped settings such as `threadline.server.command` take effect in this remote window;
   * in the user's settings.json they may be ignored.
   */
  machineSettings?: Record<string, unknown>;
}

const restrictedSettings = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.emptyWindow': false,
  'security.workspace.trust.banner': 'never',
};

const userSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'security.workspace.trust.enabled': false,
  'window.commandCenter': true,
  // A focus change while the workbench settles would otherwise close a palette a test just opened.
  'workbench.quickOpen.closeOnFocusLost': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'remote.autoForwardPorts': false,
};

export class CodeServer {
  private output = '';
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly root: string,
  ) {
    const keep = (chunk: Buffer) => (this.output += chunk.toString('utf8'));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  url = '';
  get userDataDir(): string {
    return join(this.root, 'user-data');
  }
  get settingsFile(): string {
    return join(this.userDataDir, 'User', 'settings.json');
  }

  /** Adds user settings; before a workbench page opens, its extension host starts with them. */
  addUserSettings(values: Record<string, unknown>): void {
    const settings = JSON.parse(readFileSync(this.settingsFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(this.settingsFile, JSON.stringify({ ...settings, ...values }, null, 2));
  }

  static async start(options: CodeServerOptions = {}): Promise<CodeServer> {
    if (!existsSync(codeServerBin)) {
      throw new Error(`code-server is not installed at ${codeServerBin}: run node .ci/setup.mjs`);
    }
    const root = tempDir('threadline-cs-');
    const dirs = { user: join(root, 'user-data'), ext: join(root, 'extensions'), tmp: join(root, 'tmp') };
    mkdirSync(join(dirs.user, 'User'), { recursive: true });
    mkdirSync(dirs.tmp);
    const settings = { ...userSettings, ...(options.restricted ? restrictedSettings : {}) };
    writeFileSync(join(dirs.user, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    if (options.machineSettings) {
      mkdirSync(join(dirs.user, 'Machine'));
      writeFileSync(join(dirs.user, 'Machine', 'settings.json'), JSON.stringify(options.machineSettings));
    }
    // Our own config file, so code-server never writes ~/.config/code-server/config.yaml.
    writeFileSync(join(root, 'config.yaml'), 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');
    const common = [
      '--config', join(root, 'config.yaml'),
      '--user-data-dir', dirs.user,
      '--extensions-dir', dirs.ext,
      '--disable-telemetry',
      '--disable-update-check',
    ]; // prettier-ignore
    // code-server leaves IPC sockets in TMPDIR; keep them in the run's folder, removed on stop().
    const env = { ...process.env, ...options.env, EXTENSIONS_GALLERY: '{}', TMPDIR: dirs.tmp };
    for (const vsix of options.vsixFiles ?? []) {
      await installVsix(vsix, common, env);
    }
    const args = [
      ...common,
      '--bind-addr', '127.0.0.1:0',
      '--auth', 'none',
      ...(options.restricted ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
      '--ignore-last-opened',
      ...(options.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ]; // prettier-ignore
    const child = spawn(codeServerBin, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const server = new CodeServer(child, root);
    try {
      await withTimeout(server.listening(), options.startTimeoutMs ?? 30_000, 'code-server to listen');
      await withTimeout(server.healthy(), 15_000, `${server.url}/healthz`);
    } catch (error) {
      const log = server.log();
      await server.stop();
      throw new Error(
        `code-server did not start: ${(error as Error).message}\n--- code-server output ---\n${log}`,
        { cause: error },
      );
    }
    return server;
  }

  /** stdout and stderr of code-server so far. */
  log(): string {
    return this.output;
  }

  /** The extension host's own log files (where extension errors and console output end up). */
  extensionHostLogs(): { file: string; text: string }[] {
    const logs = join(this.userDataDir, 'logs');
    if (!existsSync(logs)) return [];
    return readdirSync(logs, { recursive: true, encoding: 'utf8' })
      .filter((file) => /exthost.*\.log$/.test(file))
      .map((file) => ({ file, text: readFileSync(join(logs, file), 'utf8') }))
      .filter(({ text }) => text.length > 0);
  }

  workbenchUrl(folder: string, payload?: [string, string][]): string {
    const url = new URL(this.url);
    url.searchParams.set('folder', folder);
    if (payload) url.searchParams.set('payload', JSON.stringify(payload));
    return url.toString();
  }

  /** A path on this machine as the workbench names it (for payload entries). */
  remoteUri(path: string): string {
    return `vscode-remote://${new URL(this.url).host}${path}`;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      signalGroup(this.child, 'SIGTERM');
      const killer = setTimeout(() => signalGroup(this.child, 'SIGKILL'), 5_000);
      await this.exited;
      clearTimeout(killer);
    }
    rmSync(this.root, { recursive: true, force: true, maxRetries: 3 });
  }

  private listening(): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(this.output);
        if (match) {
          this.url = `${match[1]}/`;
          resolve();
        }
      };
      this.child.stdout?.on('data', check);
      this.child.stderr?.on('data', check);
      this.child.once('exit', (code, signal) => reject(new Error(`code-server exited (${code ?? signal})`)));
      this.child.once('error', reject);
    });
  }

  private async healthy(): Promise<void> {
    for (;;) {
      const response = await fetch(new URL('healthz', this.url)).catch(() => undefined);
      if (response?.ok) return;
      await delay(100);
    }
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

function installVsix(vsix: string, common: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      codeServerBin,
      [...common, '--install-extension', vsix],
      { env, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(`code-server --install-extension ${vsix} failed: ${error.message}\n${stdout}${stderr}`),
          );
        else resolve();
      },
    );
  });
}
