// codex app-server writes a thread down only when its first turn starts; until then it holds the thread
// in memory and answers thread/resume with "no rollout found", though the thread is loaded and takes
// turns (nor can it list their turns: there are none). A view opening such a thread (New Thread, then
// the conversation) uses the thread/start answer this connection got instead, with the thread as the
// server reads it now, marked `unwritten`. Our server resumes any thread, so with it the fallback never
// runs.
import type { ResultOf } from '../../server/protocol/methods';
import type { ServerNotification } from '../../server/protocol/notificationRoutes';

type Session = ResultOf<'thread/resume'>;
/** A resumed thread, or the stand-in for one that has no turns yet. */
export type OpenedSession = Session & { unwritten?: true };

interface Requests {
  request(method: 'thread/resume', params: { threadId: string; excludeTurns: true }): Promise<Session>;
  request(method: 'thread/read', params: { threadId: string }): Promise<ResultOf<'thread/read'>>;
}

export class UnwrittenThreads {
  /** thread/start answers of threads with no turn yet, by thread id; emptied when the server restarts. */
  private readonly sessions = new Map<string, ResultOf<'thread/start'>>();

  started(session: ResultOf<'thread/start'>): void {
    this.sessions.set(session.thread.id, session);
  }

  /** A started turn (the thread is written down now) or a closed thread ends the stand-in. */
  observe(notification: ServerNotification): void {
    if (notification.method === 'turn/started' || notification.method === 'thread/closed')
      this.sessions.delete(notification.params.threadId);
  }

  clear(): void {
    this.sessions.clear();
  }

  /** thread/resume without turns; for a thread started here that the server cannot resume yet, the stand-in. */
  async resume(server: Requests, threadId: string): Promise<OpenedSession> {
    try {
      return await server.request('thread/resume', { threadId, excludeTurns: true });
    } catch (error) {
      const started = this.sessions.get(threadId);
      if (!started) throw error;
      const { thread } = await server.request('thread/read', { threadId });
      return { ...started, thread, unwritten: true };
    }
  }
}
