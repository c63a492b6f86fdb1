// Headless Debian Chromium driven by playwright-core, a fresh profile per launch. Console errors and page
// errors are collected so tests can assert the workbench stayed clean.
import { rmSync } from 'node:fs';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { tempDir } from '../tempDirs';
import { chromiumPath } from './paths';
import { withTimeout } from './timeouts';

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

// Known noise of code-server itself: its optional vsda module is not shipped (two 404s), the built-in
// GitHub authentication extension can be slow to register on a busy machine, and on a busy machine the
// workbench gives up on slow save participants when a test's settings are saved (Threadline registers
// none; seen with the load of several suites running at once); when a window reloads, the web workbench
// says its own shutdown joiners (remote, chat) cannot run long, naming their ids.
const ignoredConsoleErrors = [
  /vsda/,
  /Failed to load resource: the server responded with a status of 404/,
  /authentication provider 'github'/,
  /Aborted onWillSaveTextDocument-event after \d+ms/,
  /Long running operations during shutdown are unsupported in the web \(id: (join\.|workbench\.contrib\.)/,
  // The same closing window writing its log after its store closed.
  /Unable to write file 'vscode-log:.*IndexedDB database 'vscode-web-db' is closed/s,
  // The workbench's own cache of the folder's settings, its write cancelled (the configuration changed
  // again, or its window went away): code-server's state, not an extension's.
  /Unable to write file '[^']*\/user-data\/User\/caches\/CachedConfigurations\/[^']*' \(Canceled/,
  // Likewise its cache of the built-in extensions it lists (seen once in a full run, under load).
  /Unable to write file 'vscode-remote:[^']*\/user-data\/User\/customBuiltinExtensionsCache\.json' \(Canceled: Canceled\)/,
  // And its read of the system extensions' cache, cancelled the same way (seen once in a full run).
  /Unable to read file 'vscode-remote:[^']*\/user-data\/User\/systemExtensionsCache\.json' \(Canceled: Canceled\)/,
  // Its reads of the folder's .vscode files and the profile's extensions.json, cancelled together when
  // the remote connection to code-server restarts under load (seen in CI, never an extension's read).
  /Unable to read file 'vscode-remote:[^']*\/(\.vscode\/[a-z]+\.json|User\/extensions\.json)' \(Canceled: Canceled\)/,
  // When the workbench saves the user's settings.json (a test switching the theme) while an extension has a
  // comment controller (Threadline's diff-editor answer bar), the workbench and the extension host race
  // over that document's model: the workbench's own bookkeeping, nothing the extension sent.
  /Error: document '[^']*\/User\/settings\.json already exists!'/,
  /^%c {2}ERR color: #f33 Error: unknown document$/,
  // The workbench looks for snippets in the workspace's .vscode folder when it appears; the sandbox binds
  // a placeholder there while a command runs (docs/sandbox.md: protected names that do not exist yet), and
  // a file dialog opening the folder makes it look too. Gone by the time it reads it.
  /Failed snippets from folder '[^']*\/\.vscode'/,
];

export class Browser {
  readonly consoleErrors: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly profile: string,
  ) {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (!ignoredConsoleErrors.some((pattern) => pattern.test(text))) this.consoleErrors.push(text);
    });
    page.on('pageerror', (error) => this.consoleErrors.push(`page error: ${error.message}`));
  }

  static async launch(): Promise<Browser> {
    const profile = tempDir('threadline-chromium-');
    const context = await withTimeout(
      chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath,
        headless: true,
        args: chromiumArgs,
        viewport: { width: 1280, height: 800 },
        timeout: 30_000,
      }),
      40_000,
      `launch ${chromiumPath}`,
    );
    context.setDefaultTimeout(20_000);
    const page = context.pages()[0] ?? (await context.newPage());
    return new Browser(context, page, profile);
  }

  async close(): Promise<void> {
    await withTimeout(this.context.close(), 15_000, 'close Chromium').catch(() => undefined);
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 3 });
  }
}
