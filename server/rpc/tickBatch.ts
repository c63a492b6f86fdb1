// Gathers what is written to a stream in one tick into one system call: a streaming turn sends
// thousands of small messages, and each write to a pipe or socket is otherwise a call of its own.
import type { Writable } from 'node:stream';

/** Returns the function to call before each write. */
export function tickBatcher(writable: Writable): () => void {
  let corked = false;
  return () => {
    if (corked) return;
    corked = true;
    writable.cork();
    process.nextTick(() => {
      corked = false;
      writable.uncork();
    });
  };
}
