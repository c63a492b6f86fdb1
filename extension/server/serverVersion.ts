// Asks the bundled app-server for its version: the extension will run the server as this same kind of child
// (the extension host's own Node, `ELECTRON_RUN_AS_NODE` so an Electron host behaves as plain Node).
import { execFile } from 'node:child_process';

const timeoutMs = 10_000;

export function serverVersion(serverScript: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [serverScript, '--version'],
      { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`Threadline server did not answer --version: ${error.message} ${stderr}`.trim()));
          return;
        }
        resolve(stdout.trim());
      },
    );
  });
}
