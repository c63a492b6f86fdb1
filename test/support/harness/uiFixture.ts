// Mocha hooks every UI suite shares: one code-server (with the packaged .vsix installed) and one browser per
// suite, a fresh workspace per test, and on failure a screenshot plus the logs in test-results/ui/.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { TEST_KEY } from '../agent';
import { codexBin, vsixPath } from '../paths';
import { Browser } from './browser';
import { CodeServer } from './codeServer';
import { tempDir } from '../tempDirs';
import { resultsPath } from './paths';
import { openWorkbench, screenshot } from './workbench';
import { createWorkspace } from './workspace';

export interface Workbench {
  readonly page: Page;
  readonly server: CodeServer;
  readonly browser: Browser;
  readonly workspace: string;
  /** The suite's THREADLINE_HOME: the extension's server keeps its threads here, never in ~/.threadline. */
  readonly home: string;
  /** Where the server under test reads config.toml: `home`, or codex's CODEX_HOME inside it. */
  readonly serverHome: string;
  readonly codex: boolean;
}

export interface WorkbenchOptions {
  restricted?: boolean;
  /**
   * The extension runs `codex app-server` (the binary @openai/codex ships) through its
   * `threadline.server.command` setting, as a user who prefers the reference server would; the key
   * the scripted provider names (`SCRIPTED_API_KEY`) is in its environment.
   */
  codex?: boolean;
}

export function fileName(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Call inside describe(); the returned object is filled in before each test. */
export function useWorkbench(
  files: Record<string, string> = { 'README.md': '# Demo\n' },
  options: WorkbenchOptions = {},
): Workbench {
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let workspace = '';
  let home = '';
  const fixture: Workbench = {
    get page() {
      return browser!.page;
    },
    get server() {
      return server!;
    },
    get browser() {
      return browser!;
    },
    get workspace() {
      return workspace;
    },
    get home() {
      return home;
    },
    get serverHome() {
      return options.codex ? join(home, 'codex-home') : home;
    },
    codex: options.codex ?? false,
  };

  before(async function () {
    this.timeout(120_000);
    if (!existsSync(vsixPath)) throw new Error(`${vsixPath} is missing: run npm run package first`);
    home = tempDir('threadline-home-');
    // A developer's own ~/.codex history (and, with `codex`, config) stays out of the tests.
    const env: NodeJS.ProcessEnv = { THREADLINE_HOME: home, CODEX_HOME: join(home, 'no-codex-history') };
    let machineSettings: Record<string, unknown> | undefined;
    if (options.codex) {
      env.CODEX_HOME = fixture.serverHome;
      env.SCRIPTED_API_KEY = TEST_KEY;
      mkdirSync(env.CODEX_HOME);
      machineSettings = {
        'threadline.server.command': codexBin,
        'threadline.server.args': ['app-server'],
      };
    }
    server = await CodeServer.start({
      vsixFiles: [vsixPath],
      env,
      restricted: options.restricted,
      machineSettings,
    });
    browser = await Browser.launch();
  });

  beforeEach(async function () {
    this.timeout(90_000);
    workspace = createWorkspace(files);
    // Leaving the previous test's window first: its shutdown logs its own cancellations (seen in CI), and
    // they belong to no test.
    await browser!.page.goto('about:blank');
    browser!.consoleErrors.length = 0;
    await openWorkbench(browser!.page, server!.workbenchUrl(workspace));
  });

  afterEach(async function () {
    const failed = this.currentTest?.state === 'failed';
    if (failed && browser && server) await saveFailure(this.currentTest!.fullTitle(), browser, server);
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  async function saveFailure(title: string, browser: Browser, server: CodeServer): Promise<void> {
    const name = `FAILED-${fileName(title)}`;
    await screenshot(browser.page, name).catch(() => undefined);
    const hostLogs = server.extensionHostLogs().map(({ file, text }) => `--- ${file} ---\n${text}`);
    const consoleErrors = `--- browser console errors ---\n${browser.consoleErrors.join('\n')}`;
    const log = [`--- code-server output ---\n${server.log()}`, consoleErrors, ...hostLogs].join('\n');
    writeFileSync(resultsPath('ui', `${name}.log`), log);
  }

  after(async function () {
    this.timeout(30_000);
    await browser?.close();
    await server?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  return fixture;
}
