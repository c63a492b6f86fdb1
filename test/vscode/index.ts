// The in-editor test entry: VS Code loads this file in the extension host (`extensionTestsPath`) and calls
// run(). Both launchers (code-server and @vscode/test-electron) use it. Suites are bundled in; mocha is
// resolved from the repository's node_modules at run time.
import Mocha from 'mocha';
import { mochaHooks } from '../support/tempDirs';
import { tagReporterOutput } from './outputTag';

export async function run(): Promise<void> {
  process.setSourceMapsEnabled(true); // stack traces name the .ts lines
  tagReporterOutput(Mocha);
  // The same temp-folder hooks as the mocha command's: what a test makes is removed after it.
  const mocha = new Mocha({ ui: 'bdd', color: true, timeout: 20_000, rootHooks: mochaHooks });
  // Defines describe/it for the suites required below, as `mocha` does for spec files.
  mocha.suite.emit('pre-require', globalThis, 'threadline-vscode-tests', mocha);
  // The same editor against the reference server (`codex app-server`): the suites that exercise the
  // server (./serverUnderTest says which one and sets codex up) and the one written for codex alone.
  if (process.env.THREADLINE_TEST_CODEX) {
    await import('./serverUnderTest');
    await import('./reference.test');
    await import('./server.test');
    await import('./threads.test');
    await import('./approvals.test');
  } else {
    await import('./smoke.test');
    await import('./server.test');
    await import('./threads.test');
    await import('./approvals.test');
    await import('./diffViews.test');
    await import('./workspaceSettings.test');
    await import('./mcpServers.test');
    await import('./codexHistory.test');
    await import('./contextMentions.test');
    await import('./turnAlerts.test');
    await import('./threadExport.test');
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      if (failures > 0) reject(new Error(`${failures} in-editor test(s) failed`));
      else resolve();
    });
  });
}
