// Whether the suites drive the server under Wine: the Wine run (test/wine/rootHooks.ts) sets
// THREADLINE_TEST_WINE=1, and ServerProcess then starts the official Windows Node under Wine
// (test/wine/stdioBridge.ts). A check that cannot apply there says why with unlessWine.
import { windowsPath } from '../wine/winePaths';

export const underWine = () => process.env.THREADLINE_TEST_WINE === '1';

/** A path as the server names it, for files a suite writes for it to read (rollouts, config). */
export const serverPath = (path: string) => (underWine() ? windowsPath(path) : path);

/** The platform the server runs on (its initialize answer, its paths and shells): win32 under Wine. */
export const serverPlatform = (): NodeJS.Platform => (underWine() ? 'win32' : process.platform);

/**
 * Under Wine, skips this test (called in `it` or `beforeEach`) or the whole suite (called in
 * `before`), adding the reason to its title so the run shows it.
 */
export function unlessWine(context: Mocha.Context, reason: string): void {
  if (!underWine()) return;
  const hook = (context.test as { type?: string } | undefined)?.type === 'hook';
  const wholeSuite = hook && /^"before all" hook/.test(context.test!.title);
  const runnable = wholeSuite ? context.test!.parent : (context.currentTest ?? context.test);
  if (runnable) runnable.title += ` (not under Wine: ${reason})`;
  context.skip();
}

/** Why a check that needs the server's fetch (undici) cannot run under Wine. */
export const WINE_NO_FETCH =
  'Wine 8 fails the keep-alive options fetch sets on a socket before it connects (connect UNKNOWN)';

/** Why a check of symbolic links the suite made cannot run under Wine. */
export const WINE_NO_LINKS =
  'Wine 8 shows a Unix symbolic link as what it points to, a dangling one not at all';

/** Why a check of the bash gate, or of commands written for bash, cannot run under Wine. */
export const WINE_BASH_ONLY =
  'bash lines and the bash gate: under Wine commands go through cmd.exe (no touch, no ;) where nothing is known safe';

/** Why a check of the sandbox cannot run under Wine. */
export const WINE_NO_SANDBOX =
  'Windows has no sandbox: every command asks first instead (checked on its own)';

/** Whether the server's files have POSIX modes to check (Windows has ACLs instead). */
export const serverHasFileModes = () => serverPlatform() !== 'win32';
