// Finds the app-server child the extension started for a suite, by the THREADLINE_HOME in its
// environment, so UI tests can check what the real process got (its keys) and kill it.
import { readdirSync, readFileSync } from 'node:fs';

export interface ServerChild {
  pid: number;
  env: string[];
}

export function findServerChild(home: string, accept: (child: ServerChild) => boolean = () => true) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      const child = { pid: Number(entry), env };
      if (args.includes('app-server') && env.includes(`THREADLINE_HOME=${home}`) && accept(child))
        return child;
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return undefined;
}

/** Polls until a server child that `accept`s appears. */
export async function waitForServerChild(
  home: string,
  accept: (child: ServerChild) => boolean = () => true,
  ms = 10_000,
): Promise<ServerChild> {
  const end = Date.now() + ms;
  for (;;) {
    const child = findServerChild(home, accept);
    if (child) return child;
    if (Date.now() > end) throw new Error('no server process as expected');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
