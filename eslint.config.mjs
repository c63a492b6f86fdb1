import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// The walls of the architecture, enforced: the server runs headless, the webview is a browser page.
const serverWall = {
  patterns: [
    { group: ['vscode', 'react', 'react-dom', 'react/*'], message: 'server/ runs headless.' },
    { group: ['**/extension/**', '**/webview/**'], message: 'server/ never imports the client side.' },
  ],
};
const webviewWall = {
  paths: [{ name: 'vscode', message: 'The webview talks to the host through messages only.' }],
  patterns: [
    { group: ['**/extension/**'], message: 'webview/ never imports extension code.' },
    {
      group: ['**/server/**', '!**/server/protocol', '!**/server/protocol/**'],
      message: 'webview/ imports only protocol types from server/.',
    },
  ],
};

// webview/common/ and webview/messages.ts are imported by the extension too: no editor, no UI, nothing of
// the extension, only protocol shapes from the server.
const sharedWall = {
  paths: [{ name: 'vscode', message: 'webview/common/ runs in the webview too.' }],
  patterns: [
    { group: ['react', 'react-dom', 'react/*'], message: 'webview/common/ holds no UI.' },
    { group: ['**/extension/**'], message: 'webview/common/ never imports extension code.' },
    {
      group: ['**/server/**', '!**/server/protocol', '!**/server/protocol/**'],
      message: 'webview/common/ imports only protocol shapes from server/.',
    },
  ],
};

// git the server or the extension runs itself goes through server/git/hostGit.ts, which keeps a
// repository's config from naming programs for it to run. A call of a child_process function with a
// literal git is the shape that slips past it.
const processCalls = '/^(exec|execSync|execFile|execFileSync|spawn|spawnSync)$/';
const gitMessage = 'Run git through server/git/hostGit.ts: a repository names programs in its config.';
const processCall = `CallExpression:matches([callee.name=${processCalls}], [callee.property.name=${processCalls}])`;
const literalGit = '/^git(\\.exe)?(\\s|$)/i';
const hostGitOnly = [
  { selector: `${processCall}[arguments.0.value=${literalGit}]`, message: gitMessage },
  { selector: `${processCall}[arguments.0.quasis.0.value.cooked=${literalGit}]`, message: gitMessage },
];

// The extension's cores that run (and are tested) in plain Node, without an editor.
const nodeOnlyExtensionModules = [
  'extension/client/**/*.ts',
  'extension/threads/threadTreeModel.ts',
  'extension/threads/recency.ts',
  'extension/threads/threadLabels.ts',
  'extension/conversation/threadFeed.ts',
  'extension/conversation/promptFeed.ts',
  'extension/approvals/promptLedger.ts',
  'extension/settings/overrides.ts',
];
const nodeOnlyWall = {
  paths: [{ name: 'vscode', message: 'This module runs in plain Node (tested without an editor).' }],
};

// Test temp folders come from tempDir() (test/support/tempDirs.ts): it removes them after the test and
// puts them in the folder `npm test` checks for leftovers.
const tempFolderMessage = 'Make temp folders with tempDir() from test/support/tempDirs.ts.';
const tempFolders = {
  paths: [
    ...['node:os', 'os'].map((name) => ({ name, importNames: ['tmpdir'], message: tempFolderMessage })),
    ...['node:fs', 'fs', 'node:fs/promises', 'fs/promises'].map((name) => ({
      name,
      importNames: ['mkdtemp', 'mkdtempSync'],
      message: tempFolderMessage,
    })),
  ],
};

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', '.cache/**', 'test-results/**', '.scratch/**', '.vscode-test/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts'],
    ignores: ['test/support/tempDirs.ts'],
    rules: { 'no-restricted-imports': ['error', tempFolders] },
  },
  { files: ['server/**/*.ts'], rules: { 'no-restricted-imports': ['error', serverWall] } },
  {
    files: ['server/**/*.ts', 'extension/**/*.ts'],
    ignores: ['server/git/hostGit.ts'],
    rules: { 'no-restricted-syntax': ['error', ...hostGitOnly] },
  },
  {
    files: ['webview/common/**/*.ts', 'webview/messages.ts'],
    rules: { 'no-restricted-imports': ['error', sharedWall] },
  },
  { files: nodeOnlyExtensionModules, rules: { 'no-restricted-imports': ['error', nodeOnlyWall] } },
  {
    files: ['webview/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', webviewWall] },
  },
);
