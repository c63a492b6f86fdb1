// `npm run test:vscode`: runs the in-editor suites inside code-server's extension host as an Extension
// Development Host (this repository, unpackaged), streams mocha's output here and exits with its result.
// On failure it prints the extension host's log.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { codexBin, repoRoot } from '../support/paths';
import { tempDir } from '../support/tempDirs';
import { Browser } from '../support/harness/browser';
import { CodeServer } from '../support/harness/codeServer';
import { withTimeout } from '../support/harness/timeouts';
import { createWorkspace } from '../support/harness/workspace';
import { bundleInEditorTests } from './bundle';
import { outputTag } from './outputTag';

const suiteTimeoutMs = 300_000;
const reference = process.argv.includes('--reference');
const label = reference ? ', reference server' : '';

async function main(): Promise<number> {
  const started = Date.now();
  const testsEntry = await bundleInEditorTests();
  // The extension's server keeps its threads here, never in the user's ~/.threadline.
  const home = tempDir('threadline-home-');
  // …and reads no Codex history but the one a test gives it (never the developer's ~/.codex). With
  // `--reference` the suites drive `codex app-server` (the binary its npm package ships), whose home
  // that is.
  const codexHome = join(home, reference ? 'codex-home' : 'no-codex-history');
  const env: NodeJS.ProcessEnv = { THREADLINE_HOME: home, CODEX_HOME: codexHome };
  if (reference) {
    mkdirSync(codexHome);
    env.THREADLINE_TEST_CODEX = codexBin;
  }
  const server = await CodeServer.start({ smokeTestDriver: true, env });
  let browser: Browser | undefined;
  const workbenchLog: string[] = [];
  const workspace = createWorkspace({ 'README.md': '# In-editor test workspace\n' });
  try {
    browser = await Browser.launch();
    let exit: (code: number) => void = () => {};
    const exited = new Promise<number>((resolve) => (exit = resolve));
    // Exposed before the page loads: the workbench calls them when it runs extension tests.
    await browser.page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      if (!line.includes(outputTag)) workbenchLog.push(line);
      else (type === 'error' ? process.stderr : process.stdout).write(`${line.replace(outputTag, '')}\n`);
    });
    await browser.page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
    const url = server.workbenchUrl(workspace, [
      ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
      ['extensionTestsPath', server.remoteUri(testsEntry)],
    ]);
    // A loaded machine (several editors at once) can take longer than playwright's default 20 s.
    await browser.page.goto(url, { timeout: 60_000 });
    const code = await withTimeout(exited, suiteTimeoutMs, 'the in-editor tests to finish');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (code === 0) {
      console.log(`in-editor tests (code-server${label}): passed in ${seconds} s`);
      return 0;
    }
    printFailureLogs(server, workbenchLog, browser?.consoleErrors ?? []);
    console.error(
      `in-editor tests (code-server${label}): FAILED (exit code ${code}) after ${seconds} s; report above`,
    );
    return 1;
  } catch (error) {
    printFailureLogs(server, workbenchLog, browser?.consoleErrors ?? []);
    console.error(`in-editor tests (code-server${label}): ${(error as Error).message}`);
    return 1;
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

// Printed only on failure: the workbench logs errors of its own when the extension host exits after run().
function printFailureLogs(server: CodeServer, workbenchLog: string[], consoleErrors: string[]): void {
  console.error(`--- workbench log ---\n${workbenchLog.join('\n')}`);
  console.error(`--- browser console errors ---\n${consoleErrors.join('\n')}`);
  for (const { file, text } of server.extensionHostLogs()) console.error(`--- ${file} ---\n${text}`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
