// Thread sections (user folders) and which thread sits where, kept in the home as
// thread-sections.json: {version, sections: [{id, name, appearance, threads: [{id, enteredAt}]}]}.
//
// Kept apart from the thread index on purpose: the index is a cache rebuilt from the rollouts (and
// may be deleted at any time), while a section is the user's own arrangement that no rollout holds.
// Moving a thread between sections so never touches its rollout, and so never changes its
// updatedAt. Every change re-reads the file first (another process may share the home), then writes
// it whole, atomically; the copy in memory serves the synchronous lookups thread views need.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import type { ThreadSection, ThreadSectionAppearance } from '../protocol/threadSectionMethods';
import { writeFileAtomic } from '../tools/applyPatch/atomicFile';
import { AppendQueue } from './rolloutFiles';
import { uuidv7 } from './uuidv7';

export const SECTIONS_FILE = 'thread-sections.json';
const VERSION = 1;

interface Member {
  id: string;
  /** Unix seconds when the thread entered this section. */
  enteredAt: number;
}
interface StoredSection {
  id: string;
  name: string;
  appearance: ThreadSectionAppearance | null;
  /** In the section's own order (thread/section/move's beforeThreadId). */
  threads: Member[];
}

/** A request that names a section (or a place in one) that does not exist. */
export class SectionError extends Error {}

const unknownSection = (sectionId: string) =>
  new SectionError(`thread section not found: ${JSON.stringify(sectionId)} (threadSection/list lists them)`);

/** A thread's place: its section and when it entered it. */
export interface Placement {
  section: ThreadSection;
  enteredAt: number;
  position: number;
}

export class ThreadSections {
  private sections: StoredSection[] = [];
  private byThread = new Map<string, Placement>();
  private stamp = '';
  private readonly file: string;
  /** Serializes read-modify-write cycles within this process. */
  private readonly queue = new AppendQueue();

  constructor(
    private readonly home: string,
    private readonly log: Logger,
  ) {
    this.file = join(home, SECTIONS_FILE);
  }

  /** Re-reads the file when another process (or a first use) may have changed it. */
  async refresh(): Promise<void> {
    const info = await fs.stat(this.file).catch(() => undefined);
    const stamp = info ? `${info.mtimeMs}:${info.size}` : 'none';
    if (stamp === this.stamp) return;
    let sections: StoredSection[] = [];
    if (info) {
      try {
        const parsed = JSON.parse(await fs.readFile(this.file, 'utf8')) as {
          version?: number;
          sections?: unknown;
        };
        if (parsed.version !== VERSION || !Array.isArray(parsed.sections))
          throw new Error('not a sections file');
        sections = parsed.sections.filter(isStoredSection);
      } catch (error) {
        this.log.warn(`${SECTIONS_FILE} is unreadable, treated as empty: ${(error as Error).message}`);
      }
    }
    this.adopt(sections);
    this.stamp = stamp;
  }

  /** All sections, oldest first (ids are UUIDv7, so this is creation order). */
  list(): ThreadSection[] {
    return this.sections.map(publicOf);
  }

  /** Where a thread sits; undefined when it is in no section. */
  placementOf(threadId: string): Placement | undefined {
    return this.byThread.get(threadId);
  }

  /** The threads of a section in its order. */
  threadsOf(sectionId: string): string[] {
    const section = this.sections.find((s) => s.id === sectionId);
    if (!section) throw unknownSection(sectionId);
    return section.threads.map((t) => t.id);
  }

  has(sectionId: string): boolean {
    return this.sections.some((s) => s.id === sectionId);
  }

  create(name: string, appearance: ThreadSectionAppearance | null): Promise<ThreadSection> {
    return this.change((sections) => {
      const section: StoredSection = { id: uuidv7(), name, appearance, threads: [] };
      sections.push(section);
      return publicOf(section);
    });
  }

  /** Renames; `appearance` undefined keeps it, null clears it. */
  update(
    sectionId: string,
    name: string,
    appearance: ThreadSectionAppearance | null | undefined,
  ): Promise<ThreadSection> {
    return this.change((sections) => {
      const section = find(sections, sectionId);
      section.name = name;
      if (appearance !== undefined) section.appearance = appearance;
      return publicOf(section);
    });
  }

  /** Deletes a section; its threads stay, in no section. Answers the threads that were in it. */
  delete(sectionId: string): Promise<string[]> {
    return this.change((sections) => {
      const section = find(sections, sectionId);
      sections.splice(sections.indexOf(section), 1);
      return section.threads.map((t) => t.id);
    });
  }

  /**
   * Puts a thread into a section (before `beforeThreadId`, else last), or out of any with null.
   * Moving within its own section keeps the time it entered.
   */
  move(threadId: string, sectionId: string | null, beforeThreadId: string | null): Promise<void> {
    return this.change((sections) => {
      const target = sectionId === null ? undefined : find(sections, sectionId);
      if (target && beforeThreadId !== null && beforeThreadId !== threadId) {
        if (!target.threads.some((t) => t.id === beforeThreadId)) {
          throw new SectionError(
            `thread ${beforeThreadId} is not in section ${sectionId}: beforeThreadId must be one of its threads`,
          );
        }
      }
      let entered: number | undefined;
      for (const section of sections) {
        const at = section.threads.findIndex((t) => t.id === threadId);
        if (at < 0) continue;
        if (section === target) entered = section.threads[at]!.enteredAt;
        section.threads.splice(at, 1);
      }
      if (!target) return;
      const member = { id: threadId, enteredAt: entered ?? Math.floor(Date.now() / 1000) };
      const before = beforeThreadId === null ? -1 : target.threads.findIndex((t) => t.id === beforeThreadId);
      if (before < 0) target.threads.push(member);
      else target.threads.splice(before, 0, member);
    });
  }

  /** Forgets a deleted thread; false when it was in no section. */
  async forget(threadId: string): Promise<boolean> {
    await this.refresh();
    if (!this.byThread.has(threadId)) return false;
    await this.move(threadId, null, null);
    return true;
  }

  private change<T>(edit: (sections: StoredSection[]) => T): Promise<T> {
    return this.queue.exclusive(this.file, async () => {
      await this.refresh();
      const sections = structuredClone(this.sections);
      const result = edit(sections);
      await fs.mkdir(this.home, { recursive: true });
      const text = JSON.stringify({ version: VERSION, sections });
      await writeFileAtomic(this.file, Buffer.from(text, 'utf8'), 0o600);
      this.adopt(sections);
      const info = await fs.stat(this.file).catch(() => undefined);
      this.stamp = info ? `${info.mtimeMs}:${info.size}` : '';
      return result;
    });
  }

  private adopt(sections: StoredSection[]): void {
    this.sections = sections;
    this.byThread = new Map();
    for (const section of sections) {
      const shown = publicOf(section);
      section.threads.forEach((member, position) =>
        this.byThread.set(member.id, { section: shown, enteredAt: member.enteredAt, position }),
      );
    }
  }
}

function find(sections: StoredSection[], sectionId: string): StoredSection {
  const section = sections.find((s) => s.id === sectionId);
  if (!section) throw unknownSection(sectionId);
  return section;
}

function publicOf(section: StoredSection): ThreadSection {
  return { id: section.id, name: section.name, appearance: section.appearance };
}

function isStoredSection(value: unknown): value is StoredSection {
  const s = value as StoredSection;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.id === 'string' &&
    typeof s.name === 'string' &&
    Array.isArray(s.threads) &&
    s.threads.every((t) => typeof t?.id === 'string' && Number.isInteger(t.enteredAt))
  );
}
