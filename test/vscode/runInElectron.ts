// `npm run test:electron`: the same in-editor suites in desktop VS Code through @vscode/test-electron.
// VSCODE_EXECUTABLE names the VS Code binary to use; without it @vscode/test-electron downloads one, which
// needs internet access.
import { runTests } from '@vscode/test-electron';
import { repoRoot } from '../support/paths';
import { createWorkspace } from '../support/harness/workspace';
import { bundleInEditorTests } from './bundle';

async function main(): Promise<number> {
  const extensionTestsPath = await bundleInEditorTests();
  const vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
  if (!vscodeExecutablePath) {
    console.log(
      'VSCODE_EXECUTABLE is not set: @vscode/test-electron will download VS Code (needs internet).',
    );
  }
  const workspace = createWorkspace({ 'README.md': '# In-editor test workspace\n' });
  try {
    return await runTests({
      ...(vscodeExecutablePath ? { vscodeExecutablePath } : {}),
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath,
      launchArgs: [workspace, '--disable-extensions'],
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(
      vscodeExecutablePath
        ? `in-editor tests (VS Code at ${vscodeExecutablePath}) failed: ${message}`
        : `in-editor tests: could not download VS Code (${message}).\n` +
            'Set VSCODE_EXECUTABLE to the VS Code binary (e.g. /usr/share/code/code), or run the suites in ' +
            'code-server with npm run test:vscode.',
    );
    return 1;
  }
}

main().then((code) => process.exit(code));
