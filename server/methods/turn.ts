// The turn methods: start a turn, steer input into the running one, interrupt it, and compact a
// thread's history. The agent runs the turn; this file checks the request and wires the parts.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { ActiveTurn } from '../agent/activeTurn';
import { UserInputError, toUserEntry } from '../agent/userInput';
import { launchTurn, steerTurn, type TurnLaunch } from '../agent/turnRunner';
import { TurnEmitter } from '../agent/turnEmitter';
import { applyTurnOverrides } from '../config/settings';
import type { UserMessageItem } from '../protocol/items';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { UserInput } from '../protocol/userInput';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { turnJournal } from '../threads/turnJournal';
import { uuidv7 } from '../threads/uuidv7';
import { withStoreErrors } from './storeErrors';
import { settingsFor } from './threadSettings';
import { prepareTurn, type TurnInput } from './turnSetup';
import { DEFAULT_SHELL_TIMEOUT_MS, runUserShell } from './commandThread';
import type { ThreadSummary } from '../threads/summary';

export function turnHandlers(services: Services): HandlerTable {
  const { turns } = services;

  function running(threadId: string, turnId: string, field: string): ActiveTurn {
    const active = turns.get(threadId);
    if (!active) throw invalidRequest(`no turn is running on thread ${threadId}`);
    if (active.turnId !== turnId) {
      throw invalidRequest(
        `${field} ${turnId} is not the running turn of thread ${threadId} (${active.turnId} is)`,
      );
    }
    return active;
  }

  const handlers: HandlerTable = {
    'turn/start': async (
      params: ParamsOf<'turn/start'>,
      { peer }: RequestContext,
    ): Promise<ResultOf<'turn/start'>> => {
      const turn = await startTurnOn(services, params.threadId, peer, async (summary) => {
        const base = services.settings.get(params.threadId) ?? (await settingsFor(services, summary, {}));
        const settings = applyTurnOverrides(base, {
          ...params,
          cwd: params.cwd ? resolve(params.cwd) : null,
        });
        await services.provider(settings.modelProvider);
        const entry = await userEntry(params.input, settings.cwd);
        services.settings.set(params.threadId, settings);
        return {
          userMessage: userMessageItem(params.input, params.clientUserMessageId),
          input: { entries: [entry], outputSchema: params.outputSchema ?? null, compactOnly: false },
        };
      });
      return { turn };
    },

    'turn/steer': async (params: ParamsOf<'turn/steer'>): Promise<ResultOf<'turn/steer'>> => {
      const active = running(params.threadId, params.expectedTurnId, 'expectedTurnId');
      const cwd = services.settings.get(params.threadId)?.cwd ?? process.cwd();
      const entry = await userEntry(params.input, cwd);
      await steerTurn(active, userMessageItem(params.input, params.clientUserMessageId), entry);
      return { turnId: active.turnId };
    },

    'turn/interrupt': async (params: ParamsOf<'turn/interrupt'>) => {
      const active = running(params.threadId, params.turnId, 'turnId');
      active.interrupt();
      await active.done;
      return {};
    },

    'thread/shellCommand': async (params: ParamsOf<'thread/shellCommand'>, { peer }: RequestContext) => {
      const timeoutMs = params.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
      const current = turns.get(params.threadId);
      const cwdOf = (fallback: string) => services.settings.get(params.threadId)?.cwd ?? fallback;
      const environment = await services.commandEnvironment();
      if (current) {
        // Inside the running turn: the output reaches the model with its next request.
        void runUserShell(
          current.emit,
          cwdOf(process.cwd()),
          params.command,
          timeoutMs,
          current.signal,
          environment,
        )
          .then((entry) => current.steer([entry]))
          .catch((error: Error) => services.log.error(`thread/shellCommand failed: ${error.stack}`));
        return {};
      }
      await startTurnOn(services, params.threadId, peer, async (summary) => ({
        userMessage: null,
        input: { entries: [], outputSchema: null, compactOnly: false },
        body: async (active) => {
          const cwd = cwdOf(summary.cwd);
          const entry = await runUserShell(
            active.emit,
            cwd,
            params.command,
            timeoutMs,
            active.signal,
            environment,
          );
          await active.emit.modelEntries([entry]);
        },
      }));
      return {};
    },

    'thread/compact/start': async (params: ParamsOf<'thread/compact/start'>, { peer }: RequestContext) => {
      await startTurnOn(services, params.threadId, peer, async () => ({
        userMessage: null,
        input: { entries: [], outputSchema: null, compactOnly: true },
      }));
      return {};
    },
  };
  return withStoreErrors(handlers);
}

/**
 * What a turn starts with; `run` replaces the agent loop for a special turn (a review), `body`
 * replaces the model altogether (a user's shell command: no model request is prepared).
 */
export interface TurnStart {
  userMessage: UserMessageItem | null;
  input: TurnInput;
  run?: TurnLaunch['run'];
  body?: (active: ActiveTurn) => Promise<void>;
}

/** Loads the thread for the caller and starts a turn on it; answers once the turn is set up. */
export async function startTurnOn(
  services: Services,
  threadId: string,
  peer: RequestContext['peer'],
  build: (summary: ThreadSummary) => Promise<TurnStart>,
) {
  const { loaded, turns } = services;
  const store = await services.store();
  const summary = store.require(threadId);
  const current = turns.get(threadId);
  if (current) {
    throw invalidRequest(
      `a turn is already running on thread ${threadId} (${current.turnId}): steer it with turn/steer or stop it with turn/interrupt`,
    );
  }
  loaded.subscribe(summary.id, peer);
  const notifier = { notify: (method: string, params: unknown) => loaded.notify(threadId, method, params) };
  const emit = new TurnEmitter(threadId, uuidv7(), notifier, turnJournal(store, threadId));
  const active = new ActiveTurn(emit);
  // Claimed before anything is awaited, so two turn/start requests cannot both start a turn.
  turns.set(threadId, active);
  let built;
  try {
    built = await build(summary);
  } catch (error) {
    turns.delete(threadId);
    throw error;
  }
  const { userMessage, input, run, body } = built;
  const setRunning = (on: boolean) => {
    if (!on && turns.get(threadId) === active) turns.delete(threadId);
    loaded.setStatus(threadId, on ? { type: 'active', activeFlags: [] } : { type: 'idle' });
  };
  // The turn's events follow the response that created it.
  active.done = new Promise((go) => setImmediate(go)).then(() =>
    launchTurn({
      active,
      userMessage,
      setRunning,
      run,
      ...(body ? { body: () => body(active) } : {}),
      prepare: () => prepareTurn(services, store, active, input),
    }).catch((error: Error) =>
      services.log.error(`turn ${emit.turnId} on ${threadId} ended badly: ${error.stack}`),
    ),
  );
  return emit.turn('inProgress', null, null);
}

async function userEntry(input: UserInput[], cwd: string) {
  if (input.length === 0) throw invalidParams('Invalid params: input: expected at least one input item');
  try {
    return await toUserEntry(input, cwd);
  } catch (error) {
    if (error instanceof UserInputError) throw invalidParams(`Invalid params: input: ${error.message}`);
    throw error;
  }
}

function userMessageItem(input: UserInput[], clientId: string | null | undefined): UserMessageItem {
  return { type: 'userMessage', id: randomUUID(), content: input, ...(clientId ? { clientId } : {}) };
}
