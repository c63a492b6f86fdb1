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

// Test temp folders come from tempDir() (test/helpers/tempDirs.ts): it removes them after the test and
// puts them in the folder `npm test` checks for leftovers.
const tempFolderMessage = 'Make temp folders with tempDir() from test/helpers/tempDirs.ts.';
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
    ignores: ['test/helpers/tempDirs.ts'],
    rules: { 'no-restricted-imports': ['error', tempFolders] },
  },
  { files: ['server/**/*.ts'], rules: { 'no-restricted-imports': ['error', serverWall] } },
  {
    files: ['webview/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', webviewWall] },
  },
);
