// Edit and resend: the thread's last turn is dropped with thread/rollback (the protocol's way to take
// turns out of the history the model sees), then the edited message starts a new turn. Files the
// dropped turn changed stay as they are (Undo changes puts them back first, when wanted). Checked first:
// the turn must still be the last one and have ended, else nothing is dropped.
import type { UserInput } from '../../server/protocol/userInput';
import type { ParamsOf } from '../../server/protocol/methods';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { turnOverrides } from '../settings/overrides';

type TurnSettings = ReturnType<typeof turnOverrides>;

export async function replaceLastTurn(
  server: Pick<ThreadlineServer, 'request'>,
  threadId: string,
  turnId: string,
  input: UserInput[],
  settings: TurnSettings,
  /** Runs between the rollback and the new turn: the view reads the shortened thread again. */
  rolledBack: () => Promise<void> = async () => {},
): Promise<string> {
  const last = await lastTurn(server, threadId);
  if (last?.id !== turnId)
    throw new Error('That message is no longer the last one: a newer turn came after it. Nothing was sent.');
  if (last.status === 'inProgress') throw new Error('That turn is still running: stop it first.');
  await server.request('thread/rollback', { threadId, numTurns: 1 });
  await rolledBack();
  const params: ParamsOf<'turn/start'> = { threadId, input, ...settings };
  const { turn } = await server.request('turn/start', params);
  return turn.id;
}

async function lastTurn(server: Pick<ThreadlineServer, 'request'>, threadId: string) {
  try {
    const page = await server.request('thread/turns/list', {
      threadId,
      limit: 1,
      sortDirection: 'desc',
      itemsView: 'notLoaded',
    });
    return page.data[0];
  } catch {
    // A server without paging: the thread whole, once.
    const { thread } = await server.request('thread/read', { threadId, includeTurns: true });
    return thread.turns[thread.turns.length - 1];
  }
}
