// Thread attachments, kept in the home as thread-attachments/<threadId>.json:
// {version, attachments: [{id, attachmentType, identityKey, payload, createdAt}]}, oldest first.
//
// Apart from the rollout on purpose: an attachment is the client's record about a thread (a worktree,
// a pull request), not part of the conversation, so adding one is not activity on the thread and
// never reaches the model. Everything in it came from a client, so it is bounded (the payload's
// size, the keys' length, how many a thread holds), the file's name comes from the thread id alone
// (a UUID the store knows, never a key), and neither the folder nor a file is read or written
// through a symbolic link.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { ThreadAttachment } from '../protocol/threadAttachmentMethods';
import { readFileNoFollow, writeFileAtomic } from '../tools/applyPatch/atomicFile';
import { AppendQueue } from './rolloutFiles';
import { uuidv7 } from './uuidv7';

export const ATTACHMENTS_FOLDER = 'thread-attachments';
const VERSION = 1;

/** The limits on what a client may keep with a thread. */
export const ATTACHMENT_LIMITS = {
  /** The payload, as JSON text. */
  payloadBytes: 64 * 1024,
  /** attachmentType and identityKey, each. */
  keyChars: 512,
  perThread: 100,
} as const;
// A file the limits above could never have produced is not ours to parse.
const MAX_FILE_BYTES = ATTACHMENT_LIMITS.perThread * (ATTACHMENT_LIMITS.payloadBytes + 4 * 1024);
const THREAD_ID = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;

/** A request the stored attachments refuse (too many, a storage path that is a link, …). */
export class AttachmentError extends Error {}

export type AddOutcome = { outcome: 'created' | 'existing'; attachment: ThreadAttachment };

export class ThreadAttachments {
  private readonly folder: string;
  /** Serializes each thread's read-modify-write cycles within this process. */
  private readonly queue = new AppendQueue();

  constructor(home: string) {
    this.folder = join(home, ATTACHMENTS_FOLDER);
  }

  /** The thread's attachments, oldest first. */
  async list(threadId: string): Promise<ThreadAttachment[]> {
    return this.read(this.fileOf(threadId));
  }

  /** Adds one, or answers the one the thread already has with this type and identity key. */
  add(threadId: string, attachmentType: string, identityKey: string, payload: unknown): Promise<AddOutcome> {
    const file = this.fileOf(threadId);
    return this.queue.exclusive(file, async () => {
      const attachments = await this.read(file);
      const existing = attachments.find((a) => sameIdentity(a, attachmentType, identityKey));
      if (existing) return { outcome: 'existing', attachment: existing };
      if (attachments.length >= ATTACHMENT_LIMITS.perThread) {
        throw new AttachmentError(
          `thread ${threadId} already has ${ATTACHMENT_LIMITS.perThread} attachments, the most it may keep: remove one first`,
        );
      }
      const attachment: ThreadAttachment = {
        id: uuidv7(),
        attachmentType,
        identityKey,
        payload,
        createdAt: Math.floor(Date.now() / 1000),
      };
      await this.write(file, [...attachments, attachment]);
      return { outcome: 'created', attachment };
    });
  }

  /** Removes one; answers what was removed, or undefined when the thread had no such attachment. */
  remove(
    threadId: string,
    attachmentType: string,
    identityKey: string,
  ): Promise<ThreadAttachment | undefined> {
    const file = this.fileOf(threadId);
    return this.queue.exclusive(file, async () => {
      const attachments = await this.read(file);
      const gone = attachments.find((a) => sameIdentity(a, attachmentType, identityKey));
      if (gone)
        await this.write(
          file,
          attachments.filter((a) => a !== gone),
        );
      return gone;
    });
  }

  /** The ids of the threads holding an attachment with this type and identity key, in id order. */
  async owners(attachmentType: string, identityKey: string): Promise<string[]> {
    await this.checkFolder();
    const names = await fs.readdir(this.folder).catch(() => [] as string[]);
    const owners: string[] = [];
    for (const name of names.sort()) {
      const threadId = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
      if (!THREAD_ID.test(threadId)) continue;
      const attachments = await this.read(join(this.folder, name)).catch(() => []);
      if (attachments.some((a) => sameIdentity(a, attachmentType, identityKey))) owners.push(threadId);
    }
    return owners;
  }

  /** Forgets a deleted thread's attachments. */
  async forget(threadId: string): Promise<void> {
    const file = this.fileOf(threadId);
    await this.queue.exclusive(file, () => fs.rm(file, { force: true }));
  }

  private fileOf(threadId: string): string {
    // The store knows the thread before we get here; this keeps any other id from naming a path.
    if (!THREAD_ID.test(threadId)) throw new AttachmentError(`not a thread id: ${JSON.stringify(threadId)}`);
    return join(this.folder, `${threadId}.json`);
  }

  /** Refuses a folder that is a link (it would put the files wherever it points). */
  private async checkFolder(): Promise<boolean> {
    const info = await fs.lstat(this.folder).catch(() => undefined);
    if (info && !info.isDirectory())
      throw new AttachmentError(`refused: ${this.folder} is not a folder (a symbolic link is not followed)`);
    return info !== undefined;
  }

  private async read(file: string): Promise<ThreadAttachment[]> {
    if (!(await this.checkFolder())) return [];
    const info = await fs.lstat(file).catch(() => undefined);
    if (!info) return [];
    if (!info.isFile())
      throw new AttachmentError(`refused: ${file} is not a regular file (a symbolic link is not followed)`);
    if (info.size > MAX_FILE_BYTES) throw new AttachmentError(`refused: ${file} is larger than any we write`);
    const bytes = await readFileNoFollow(file);
    if (!bytes) return [];
    type Stored = { version?: number; attachments?: unknown } | null;
    let parsed: Stored = null;
    try {
      parsed = JSON.parse(bytes.toString('utf8')) as Stored;
    } catch {
      // Answered below as not ours: a torn or foreign file is never rewritten over.
    }
    if (parsed?.version !== VERSION || !Array.isArray(parsed.attachments))
      throw new AttachmentError(`${file} is not a thread attachments file`);
    return parsed.attachments.filter(isAttachment);
  }

  private async write(file: string, attachments: ThreadAttachment[]): Promise<void> {
    if (!(await this.checkFolder())) await fs.mkdir(this.folder, { recursive: true, mode: 0o700 });
    if (!attachments.length) {
      await fs.rm(file, { force: true });
      return;
    }
    const text = JSON.stringify({ version: VERSION, attachments });
    await writeFileAtomic(file, Buffer.from(text, 'utf8'), 0o600);
  }
}

/** Why a client's attachment is refused before anything is stored; undefined when it fits the limits. */
export function attachmentInputProblem(
  fields: Record<string, string>,
  payload?: unknown,
): string | undefined {
  for (const [name, value] of Object.entries(fields)) {
    if (!value) return `${name}: must not be empty`;
    if (value.length > ATTACHMENT_LIMITS.keyChars)
      return `${name}: longer than ${ATTACHMENT_LIMITS.keyChars} characters`;
  }
  if (payload === undefined) return undefined;
  const size = Buffer.byteLength(JSON.stringify(payload) ?? 'null', 'utf8');
  if (size > ATTACHMENT_LIMITS.payloadBytes)
    return `payload: ${size} bytes of JSON, more than the ${ATTACHMENT_LIMITS.payloadBytes} an attachment may hold`;
  return undefined;
}

function sameIdentity(a: ThreadAttachment, attachmentType: string, identityKey: string): boolean {
  return a.attachmentType === attachmentType && a.identityKey === identityKey;
}

function isAttachment(value: unknown): value is ThreadAttachment {
  const a = value as ThreadAttachment;
  return (
    typeof a === 'object' &&
    a !== null &&
    typeof a.id === 'string' &&
    typeof a.attachmentType === 'string' &&
    typeof a.identityKey === 'string' &&
    'payload' in a &&
    Number.isInteger(a.createdAt)
  );
}
