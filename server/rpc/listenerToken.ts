// The bearer token of the WebSocket listener. Loopback is no boundary: every local program, a
// sandboxed command with network on included, can open 127.0.0.1. So a token is always required:
// the one in --auth-token-file, or one made for this start and handed over out of band, in a file
// under Threadline's home (which sandboxed commands cannot see: the sandbox hides that folder) and
// once on stderr for a human.
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ListenerToken {
  token: string;
  /** The file this start wrote the token to (removed at close); null for --auth-token-file. */
  file: string | null;
}

export function readTokenFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read --auth-token-file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const token = text.split(/\r?\n/, 1)[0]!.trim();
  if (token.length < 16)
    throw new Error(`--auth-token-file ${file}: the token's first line needs 16 characters or more`);
  return token;
}

export const generateToken = () => randomBytes(32).toString('base64url');

/** Where a start on `port` leaves its token for local clients. */
export const tokenFilePath = (home: string, port: number) => join(home, 'listeners', `ws-${port}.token`);

/** Writes the token readable by the user alone (Windows ignores the modes: the home's ACL applies). */
export async function writeTokenFile(home: string, port: number, token: string): Promise<string> {
  const file = tokenFilePath(home, port);
  await fs.mkdir(join(home, 'listeners'), { recursive: true, mode: 0o700 });
  // A file left by an earlier start on the same port is replaced, never appended to or reused.
  await fs.rm(file, { force: true });
  await fs.writeFile(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return file;
}

/** A log sink that never writes the token: a log line can end up in a feedback bundle. */
export function redacting(token: string, sink: (line: string) => void): (line: string) => void {
  return (line) => sink(line.includes(token) ? line.split(token).join('[listener token]') : line);
}
