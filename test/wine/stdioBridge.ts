// The server under Wine as a child process with stdio, so suites written for stdio run against it
// unchanged (ServerProcess starts it this way when THREADLINE_TEST_WINE=1). Wine cannot hand node.exe
// a Unix pipe as its stdio, so the server listens on its WebSocket listener and this bridge, in the
// test process, carries each line written to the child's stdin as one message, each message back as
// one line on its stdout, and the server's log file onto its stderr. Paths are turned into Z:\ paths
// on the way in and back on the way out (winePaths.ts). Ending stdin stops the server with Ctrl+C
// (Wine's SIGINT), its graceful stop, since closing a WebSocket does not end a listening server; the
// child itself is the Wine process, so kill() and the exit event are the server's own.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import type { Socket } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { WebSocket } from 'ws';
import { toUnixPaths, toWindowsPaths } from './winePaths';
import { launchWineServer, wineListening } from './wineServer';

export interface WineChildOptions {
  home: string;
  env: Record<string, string>;
  args: string[];
  bundle?: string;
}

export function wineStdioChild({
  home,
  env,
  args,
  bundle,
}: WineChildOptions): ChildProcessWithoutNullStreams {
  const windowsEnv = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, toWindowsPaths(value) as string]),
  );
  const launched = launchWineServer(home, windowsEnv, { args, ...(bundle ? { bundle } : {}) });
  const { child } = launched;
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  // What the bridge itself has to say goes on stderr too, while the server runs.
  const note = (text: string) => void (stderr.writableEnded || stderr.write(`stdio bridge: ${text}\n`));
  const log = logReader(launched.log, (text) => stderr.write(text));
  const poll = setInterval(log.drain, 100).unref();

  let socket: WebSocket | null = null;
  const waiting: string[] = [];
  let partial = '';
  let corked = false;
  const sendLine = (line: string) => {
    if (line.length === 0) return;
    if (socket?.readyState !== WebSocket.OPEN) return void waiting.push(line);
    // Lines written in one tick leave in one TCP write, as they would through a pipe: the server
    // reads them together (a search superseded by the next line is cancelled, not finished first).
    const tcp = (socket as unknown as { _socket: Socket })._socket;
    if (!corked) {
      corked = true;
      tcp.cork();
      process.nextTick(() => {
        corked = false;
        tcp.uncork();
      });
    }
    socket.send(windowsLine(line));
  };
  const stdin = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      lines.forEach(sendLine);
      done();
    },
    final(done) {
      sendLine(partial);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      done();
    },
  });

  wineListening(launched).then(
    ({ url, token }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      socket = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
      socket.on('open', () => waiting.splice(0).forEach(sendLine));
      socket.on('message', (data) => {
        // What the server logged before it sent this is on stderr first, as with pipes.
        if (stdout.writableEnded) return;
        log.drain();
        stdout.write(`${unixLine(String(data))}\n`);
      });
      socket.on('close', (code, reason) => {
        if (child.exitCode === null && child.signalCode === null) {
          note(`the server closed the WebSocket (${code} ${String(reason)})`);
        }
      });
      socket.on('error', (error) => note(error.message));
    },
    (error: Error) => note(error.message),
  );

  child.once('exit', () => {
    clearInterval(poll);
    log.drain();
    log.close();
    socket?.terminate();
    stdout.end();
    stderr.end();
  });
  return Object.assign(child, { stdin, stdout, stderr }) as unknown as ChildProcessWithoutNullStreams;
}

/** A line for the server: JSON with its paths made Windows paths; anything else as it is. */
function windowsLine(line: string): string {
  try {
    return JSON.stringify(toWindowsPaths(JSON.parse(line)));
  } catch {
    return line;
  }
}

const unixLine = (text: string) => JSON.stringify(toUnixPaths(JSON.parse(text)));

/** Reads what is added to a file, from an open descriptor (the file may be removed before the server ends). */
function logReader(path: string, onText: (text: string) => void) {
  const fd = openSync(path, 'r');
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.alloc(64 * 1024);
  let offset = 0;
  let open = true;
  return {
    drain() {
      if (!open) return;
      for (let read = readSync(fd, buffer, 0, buffer.length, offset); read > 0;) {
        offset += read;
        onText(decoder.write(buffer.subarray(0, read)));
        read = readSync(fd, buffer, 0, buffer.length, offset);
      }
    },
    close() {
      open = false;
      closeSync(fd);
    },
  };
}
