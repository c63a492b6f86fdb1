// The default transport: JSON lines on the process's own stdin and stdout.
import { NdjsonMessageReader, NdjsonMessageWriter } from './ndjson';
import type { Transport } from './clientConnection';

export function stdioTransport(maxLineBytes?: number): Transport {
  return {
    describe: 'stdio',
    createReader: (hooks) => new NdjsonMessageReader(process.stdin, { ...hooks, maxLineBytes }),
    createWriter: (hooks) => new NdjsonMessageWriter(process.stdout, hooks),
  };
}
