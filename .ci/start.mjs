// `npm start`: builds and packages Threadline, creates a small demo git repository under the OS temp dir and
// opens it in a real editor with the fresh .vsix installed: desktop VS Code when `code` is on PATH, otherwise
// code-server on 127.0.0.1 (the URL is printed) until Ctrl+C.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { require as tsxRequire } from 'tsx/cjs/api';

const repo = fileURLToPath(new URL('..', import.meta.url));
process.chdir(repo);
const { version, name } = JSON.parse(readFileSync('package.json', 'utf8'));
const vsix = `${repo}${name}-${version}.vsix`;

function run(command, args, { quiet = false } = {}) {
  const result = spawnSync(command, args, { stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (result.status === 0) return;
  if (quiet) process.stderr.write(`${result.stdout}${result.stderr}`);
  process.exit(result.status ?? 1);
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

console.log('Building and packaging Threadline…');
run('npm', ['run', '--silent', 'package'], { quiet: true });

// The harness (TypeScript) knows how to make workspaces and start code-server; reuse it rather than copy it.
const harness = (file) => tsxRequire(`../test/support/harness/${file}`, import.meta.url);
const { createWorkspace } = harness('workspace.ts');
const demo = createWorkspace(
  {
    'README.md': '# Threadline demo\n\nA small repository to try Threadline on.\n',
    'src/greet.js': 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n',
  },
  { git: true, keep: true },
);
console.log(`Demo workspace: ${demo}`);

if (onPath('code')) {
  run('code', ['--install-extension', vsix, '--force']);
  run('code', [demo]);
  console.log('Opened in VS Code.');
  process.exit(0);
}

const { CodeServer } = harness('codeServer.ts');
const server = await CodeServer.start({ vsixFiles: [vsix] });
const url = server.workbenchUrl(demo);
console.log(`\nThreadline is running in code-server: ${url}\nPress Ctrl+C to stop.`);
if (process.env.DISPLAY && onPath('xdg-open'))
  spawn('xdg-open', [url], { stdio: 'ignore', detached: true }).unref();

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    process.exit(0);
  });
}
