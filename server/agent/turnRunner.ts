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
  const { active } = launch;
  const { emit } = active;
  launch.setRunning(true);
  let ended = false;
  const end = () => {
    if (!ended) launch.setRunning(false);
    ended = true;
  };
  try {
    const outcome = await run(launch);
    // Input steered in after the model's last request still belongs to the conversation. A write
    // that fails here is kept by the emitter, which then ends the turn failed.
    await emit.modelEntries(active.takeSteeredInput()).catch(() => {});
    // A client may start the next turn as soon as it hears this one completed.
    return await emit.completed(outcome.status, outcome.error, end);
  } finally {
    end();
  }
}

async function run(launch: TurnLaunch): Promise<TurnOutcome> {
  const { emit } = launch.active;
  let spec: TurnSpec;
  try {
    // A start that cannot be saved is announced, then fails the turn before the model is asked.
    await emit.started();
    if (launch.userMessage) {
      emit.itemStarted(launch.userMessage);
      await emit.itemCompleted(launch.userMessage);
    }
    if (launch.body) {
      await launch.body();
      return { status: launch.active.interrupted ? 'interrupted' : 'completed', error: null };
    }
    spec = await launch.prepare();
  } catch (error) {
    if (isAbort(error) || launch.active.interrupted) return { status: 'interrupted', error: null };
    const turnError = toTurnError(error);
    emit.turnEvent('error', { error: turnError, willRetry: false });
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
