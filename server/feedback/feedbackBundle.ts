// feedback/upload has no upstream service here, so a report becomes a local bundle the user can
// look at and send themselves: $THREADLINE_HOME/feedback/<id>/ with the report, the thread's rollout,
// the server's recent log and any extra log files, every text scrubbed of secrets. Owner-only: it
// can hold the conversation.
import { promises as fs } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { uuidv7 } from '../threads/uuidv7';

const MAX_FILE_BYTES = 16 * 1024 * 1024;

export interface FeedbackReport {
  classification: string;
  reason: string | null;
  tags: Record<string, string>;
  threadId: string | null;
  /** The thread's rollout, as JSON lines. */
  rollout: string | null;
  log: string | null;
  extraLogFiles: string[];
}

export class FeedbackFileError extends Error {}

/** Writes the bundle and returns its id (its folder's name). */
export async function writeFeedbackBundle(
  home: string,
  report: FeedbackReport,
  scrub: (text: string) => string,
): Promise<string> {
  const extras = await Promise.all(report.extraLogFiles.map(readExtra));
  const id = uuidv7();
  const folder = join(home, 'feedback', id);
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  const write = (name: string, text: string) =>
    fs.writeFile(join(folder, name), scrub(text), { mode: 0o600 });
  const files: string[] = [];
  if (report.rollout !== null) {
    await write('rollout.jsonl', report.rollout);
    files.push('rollout.jsonl');
  }
  if (report.log !== null) {
    await write('server.log', report.log);
    files.push('server.log');
  }
  for (const [index, extra] of extras.entries()) {
    const name = `extra-${index + 1}-${basename(extra.path)}`;
    await write(name, extra.text);
    files.push(name);
  }
  const summary = {
    id,
    createdAt: new Date().toISOString(),
    classification: report.classification,
    reason: report.reason,
    tags: report.tags,
    threadId: report.threadId,
    files,
  };
  await write('feedback.json', `${JSON.stringify(summary, null, 2)}\n`);
  return id;
}

async function readExtra(path: string): Promise<{ path: string; text: string }> {
  if (!isAbsolute(path)) throw new FeedbackFileError(`extraLogFiles: ${path} is not an absolute path`);
  let stat;
  try {
    stat = await fs.stat(path);
  } catch (error) {
    throw new FeedbackFileError(
      `extraLogFiles: cannot read ${path} (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  if (!stat.isFile()) throw new FeedbackFileError(`extraLogFiles: ${path} is not a file`);
  if (stat.size > MAX_FILE_BYTES) {
    throw new FeedbackFileError(`extraLogFiles: ${path} is over ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
  }
  return { path, text: await fs.readFile(path, 'utf8') };
}
