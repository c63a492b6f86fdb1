// Where the built artifacts live, resolved from the repository root so tests run from any cwd.
import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';

export const repoRoot = resolve(__dirname, '..', '..');
export const serverBundle = resolve(repoRoot, 'dist', 'server.js');
/** The reference server and TUI (@openai/codex 0.169, a devDependency that ships its binary). */
export const codexBin = resolve(repoRoot, 'node_modules', '.bin', 'codex');

export const packageJson = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  main: string;
  bin: Record<string, string>;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
  contributes: {
    commands: { command: string; title: string }[];
    viewsContainers: { activitybar: { id: string; icon: string }[] };
    views: Record<string, { id: string }[]>;
    viewsWelcome: { view: string; contents: string }[];
    keybindings: { command: string; key: string; mac?: string }[];
    walkthroughs: {
      id: string;
      steps: {
        id: string;
        description: string;
        media: { markdown?: string; svg?: string; image?: string };
        completionEvents: string[];
      }[];
    }[];
  };
};

export const vsixPath = resolve(repoRoot, `${packageJson.name}-${packageJson.version}.vsix`);
