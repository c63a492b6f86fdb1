// A turn from start to end: announce it, show the user's message, run the loop, record how it
// ended. Whatever goes wrong, the turn completes (failed or interrupted) and the thread goes idle.
import type { UserMessageItem } from '../protocol/items';
import type { Turn } from '../protocol/thread';
import type { ActiveTurn } from './activeTurn';
import { runTurn, type TurnOutcome, type TurnSpec } from './turnLoop';
import { isAbort, toTurnError } from './turnError';

export interface TurnLaunch {
  active: ActiveTurn;
  /** The message that started the turn (none for a compaction). */
  userMessage: UserMessageItem | null;
  /** Builds the turn's model request; runs after the turn has started, so its failures fail the turn. */
  prepare(): Promise<TurnSpec>;
  /** Work that replaces the model's part of the turn (a user's shell command); `prepare` is then unused. */
  body?: () => Promise<void>;
  /** The thread is running (true) or idle again (false). */
  setRunning(running: boolean): void;
  /** Runs the prepared turn; the agent loop unless the turn is special (a review). */
  run?: (spec: TurnSpec, active: ActiveTurn) => Promise<TurnOutcome>;
}

export async function launchTurn(launch: TurnLaunch): Promise<Turn> {
  const { active, userMessage } = launch;
  const { emit } = active;
  launch.setRunning(true);
  let ended = false;
  const end = () => {
    if (!ended) launch.setRunning(false);
    ended = true;
  };
  try {
    await emit.started();
    if (userMessage) {
      emit.itemStarted(userMessage);
      await emit.itemCompleted(userMessage);
    }
    const outcome = await run(launch);
    // Input steered in after the model's last request still belongs to the conversation.
    await emit.modelEntries(active.takeSteeredInput());
    // A client may start the next turn as soon as it hears this one completed.
    return await emit.completed(outcome.status, outcome.error, end);
  } finally {
    end();
  }
}

async function run(launch: TurnLaunch): Promise<TurnOutcome> {
  let spec: TurnSpec;
  try {
    if (launch.body) {
      await launch.body();
      return { status: launch.active.interrupted ? 'interrupted' : 'completed', error: null };
    }
    spec = await launch.prepare();
  } catch (error) {
    if (isAbort(error) || launch.active.interrupted) return { status: 'interrupted', error: null };
    const turnError = toTurnError(error);
    launch.active.emit.turnEvent('error', { error: turnError, willRetry: false });
    return { status: 'failed', error: turnError };
  }
  return (launch.run ?? runTurn)(spec, launch.active);
}

/** Plays a steered message into the running turn: shown at once, sent with the next model request. */
export async function steerTurn(
  active: ActiveTurn,
  item: UserMessageItem,
  entry: Parameters<ActiveTurn['steer']>[0][number],
): Promise<void> {
  active.steer([entry]);
  active.emit.itemStarted(item);
  await active.emit.itemCompleted(item);
}
