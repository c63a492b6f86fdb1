// feedback/upload has no upstream service here, so a report becomes a local bundle the user can
// look at and send themselves: $THREADLINE_HOME/feedback/<id>/ with the report, the thread's rollout,
// the server's recent log and any extra log files, every text scrubbed of secrets; feedback/save puts
// the same files in a ZIP where the client asks. Owner-only: it can hold the conversation.
import { promises as fs } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { uuidv7 } from '../threads/uuidv7';
import { zipFiles } from './zipFile';

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

/** A bundle's files, scrubbed: the report (feedback.json) last, naming the others. */
async function bundleFiles(
  report: FeedbackReport,
  scrub: (text: string) => string,
): Promise<{ id: string; files: { name: string; text: string }[] }> {
  const extras = await Promise.all(report.extraLogFiles.map(readExtra));
  const id = uuidv7();
  const files: { name: string; text: string }[] = [];
  const add = (name: string, text: string) => files.push({ name, text: scrub(text) });
  if (report.rollout !== null) add('rollout.jsonl', report.rollout);
  if (report.log !== null) add('server.log', report.log);
  for (const [index, extra] of extras.entries())
    add(`extra-${index + 1}-${basename(extra.path)}`, extra.text);
  const summary = {
    id,
    createdAt: new Date().toISOString(),
    classification: report.classification,
    reason: report.reason,
    tags: report.tags,
    threadId: report.threadId,
    files: files.map((file) => file.name),
  };
  add('feedback.json', `${JSON.stringify(summary, null, 2)}\n`);
  return { id, files };
}

/** Writes the bundle and returns its id (its folder's name). */
export async function writeFeedbackBundle(
  home: string,
  report: FeedbackReport,
  scrub: (text: string) => string,
): Promise<string> {
  const { id, files } = await bundleFiles(report, scrub);
  const folder = join(home, 'feedback', id);
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  for (const file of files) await fs.writeFile(join(folder, file.name), file.text, { mode: 0o600 });
  return id;
}

/**
 * feedback/save: the same bundle as one ZIP at `path`, which must be absolute and not exist yet (the
 * caller owns it; nothing already there is overwritten). Returns the bundle's id.
 */
export async function saveFeedbackZip(
  path: string,
  report: FeedbackReport,
  scrub: (text: string) => string,
): Promise<string> {
  if (!isAbsolute(path)) throw new FeedbackFileError(`savePath: ${path} is not an absolute path`);
  const { id, files } = await bundleFiles(report, scrub);
  const zip = await zipFiles(
    files.map((file) => ({ name: file.name, data: Buffer.from(file.text, 'utf8') })),
  );
  try {
    await fs.writeFile(path, zip, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FeedbackFileError(
      code === 'EEXIST' ? `savePath: ${path} already exists` : `savePath: cannot write ${path} (${code})`,
    );
  }
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
