// Threadline's own experimental thread/import: a rollout file exported from Threadline (by this
// machine or another) becomes a new thread here, with its turns. The file is untrusted input: it is
// read up to a size bound and validated record by record; nothing in it is run, and the new thread
// runs with this server's settings for the given folder, never with what the file says.
import { Type } from '@sinclair/typebox';
import { Opt, Params } from './schema';

export const ThreadImportParams = Params({
  /** Absolute path of the rollout (`.jsonl`) to import. */
  path: Type.String({ minLength: 1 }),
  /** The folder the new thread works in (the server's working directory when omitted). */
  cwd: Opt(Type.String()),
});
