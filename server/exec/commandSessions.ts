// Commands that outlived their exec_command call: the model polls and feeds them with write_stdin
// by session id. Sessions belong to a thread; cleaning the thread (or closing the server) kills
// them. Output arriving between polls is kept (capped) until the next poll reads it.
import { OutputBuffer } from './outputBuffer';
import type { RunningProcess } from './processRunner';

export interface Session {
  id: number;
  threadId: string;
  command: string;
  cwd: string;
  process: RunningProcess;
  /** Output since the last poll. */
  unread: OutputBuffer;
  /** Settles once what follows the end (the sandbox's report) is in `unread`. */
  settled: Promise<void>;
}

const MAX_SESSIONS = 32;
export const UNREAD_CAP_BYTES = 256 * 1024;

export class CommandSessions {
  private readonly sessions = new Map<number, Session>();
  private nextId = 1;

  add(threadId: string, command: string, cwd: string, process: RunningProcess): Session {
    const settled = process.exited.then(() => {});
    if (this.sessions.size >= MAX_SESSIONS) this.evictOne();
    const session = {
      id: this.nextId++,
      threadId,
      command,
      cwd,
      process,
      unread: new OutputBuffer(UNREAD_CAP_BYTES),
      settled,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  get(threadId: string, id: number): Session | undefined {
    const session = this.sessions.get(id);
    return session?.threadId === threadId ? session : undefined;
  }

  /** Hands over what arrived since the last poll. */
  takeUnread(session: Session): string {
    const text = session.unread.text();
    session.unread = new OutputBuffer(UNREAD_CAP_BYTES);
    return text;
  }

  /** A session whose process ended is forgotten once its end has been reported. */
  forget(session: Session): void {
    this.sessions.delete(session.id);
  }

  /** Kills every session of a thread; returns how many were running. */
  clean(threadId: string): number {
    let killed = 0;
    for (const session of [...this.sessions.values()]) {
      if (session.threadId !== threadId) continue;
      if (session.process.running) killed++;
      session.process.kill();
      this.sessions.delete(session.id);
    }
    return killed;
  }

  closeAll(): void {
    for (const session of this.sessions.values()) session.process.kill();
    this.sessions.clear();
  }

  private evictOne(): void {
    const sessions = [...this.sessions.values()];
    const victim = sessions.find((s) => !s.process.running) ?? sessions[0]!;
    victim.process.kill();
    this.sessions.delete(victim.id);
  }
}
