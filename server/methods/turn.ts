// The turn methods: start a turn, steer input into the running one, interrupt it, and compact a
// thread's history. The agent runs the turn; this file checks the request and wires the parts.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { ActiveTurn } from '../agent/activeTurn';
import { UserInputError, toUserEntry } from '../agent/userInput';
import { launchTurn, steerTurn, type TurnLaunch } from '../agent/turnRunner';
import { TurnEmitter, type Notifier } from '../agent/turnEmitter';
import { applyTurnOverrides } from '../config/settings';
import type { UserMessageItem } from '../protocol/items';
import type { UserInput } from '../protocol/userInput';
import { expandMentions } from './turnMentions';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { turnJournal } from '../threads/turnJournal';
import { ReadOnlyThreadError } from '../threads/storeErrors';
import { uuidv7 } from '../threads/uuidv7';
import { settingsFor } from './threadSettings';
import { prepareTurn, type TurnInput } from './turnSetup';
import { DEFAULT_SHELL_TIMEOUT_MS, runUserShell } from './commandThread';
import type { ThreadSummary } from '../threads/summary';
import type { LoadedThread } from '../loadedThread';

export function turnHandlers(services: Services): HandlerTable {
  const { loaded } = services;

  function running(threadId: string, turnId: string, field: string): ActiveTurn {
    const active = loaded.get(threadId)?.turn;
    if (!active) throw invalidRequest(`no turn is running on thread ${threadId}`);
    if (active.turnId !== turnId) {
      throw invalidRequest(
        `${field} ${turnId} is not the running turn of thread ${threadId} (${active.turnId} is)`,
      );
    }
    return active;
  }

  return {
    'turn/start': async (params, { peer }) => {
      const turn = await startTurnOn(services, params.threadId, peer, async (summary, thread) => {
        const base = await settingsFor(services, summary);
        const settings = applyTurnOverrides(base, {
          ...params,
          cwd: params.cwd ? resolve(params.cwd) : null,
        });
        await services.enforceRequirements(settings);
        await services.provider(settings.modelProvider);
        const entry = await userEntry(params.input, settings.cwd, services);
        thread.settings = settings;
        return {
          userMessage: userMessageItem(params.input, params.clientUserMessageId),
          input: { entries: [entry], outputSchema: params.outputSchema ?? null, compactOnly: false },
        };
      });
      return { turn };
    },

    'turn/steer': async (params) => {
      const active = running(params.threadId, params.expectedTurnId, 'expectedTurnId');
      const cwd = loaded.get(params.threadId)?.settings?.cwd ?? process.cwd();
      const entry = await userEntry(params.input, cwd, services);
      await steerTurn(active, userMessageItem(params.input, params.clientUserMessageId), entry);
      return { turnId: active.turnId };
    },

    'turn/interrupt': async (params) => {
      const active = running(params.threadId, params.turnId, 'turnId');
      active.interrupt();
      await active.done;
      return {};
    },

    'thread/shellCommand': async (params, { peer }) => {
      const timeoutMs = params.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
      const current = loaded.get(params.threadId)?.turn;
      const cwdOf = (fallback: string) => loaded.get(params.threadId)?.settings?.cwd ?? fallback;
      const environment = await services.commandEnvironment();
      const shell = await services.commandShell();
      if (current) {
        // Inside the running turn: the output reaches the model with its next request.
        void runUserShell(
          current.emit,
          cwdOf(process.cwd()),
          params.command,
          timeoutMs,
          current.signal,
          environment,
          shell,
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
            shell,
          );
          await active.emit.modelEntries([entry]);
        },
      }));
      return {};
    },

    'thread/compact/start': async (params, { peer }) => {
      await startTurnOn(services, params.threadId, peer, async () => ({
        userMessage: null,
        input: { entries: [], outputSchema: null, compactOnly: true },
      }));
      return {};
    },
  };
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
  build: (summary: ThreadSummary, thread: LoadedThread) => Promise<TurnStart>,
) {
  const { loaded } = services;
  const store = await services.store();
  const summary = store.require(threadId);
  // A Codex thread is only read: a turn runs on its continuation (thread/resume) instead.
  if (store.isCodex(threadId)) throw new ReadOnlyThreadError(threadId);
  const current = loaded.get(threadId)?.turn;
  if (current) {
    throw invalidRequest(
      `a turn is already running on thread ${threadId} (${current.turnId}): steer it with turn/steer or stop it with turn/interrupt`,
    );
  }
  const thread = loaded.subscribe(summary.id, peer);
  const notifier: Notifier = { notify: (method, params) => loaded.notify(threadId, method, params) };
  const emit = new TurnEmitter(threadId, uuidv7(), notifier, turnJournal(store, threadId));
  const active = new ActiveTurn(emit);
  // Claimed before anything is awaited, so two turn/start requests cannot both start a turn.
  thread.turn = active;
  let built;
  try {
    built = await build(summary, thread);
  } catch (error) {
    thread.turn = undefined;
    throw error;
  }
  const { userMessage, input, run, body } = built;
  const setRunning = (on: boolean) => {
    if (!on && thread.turn === active) thread.turn = undefined;
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
      prepare: () => prepareTurn(services, store, thread, active, input),
    })
      .catch((error: Error) =>
        services.log.error(`turn ${emit.turnId} on ${threadId} ended badly: ${error.stack}`),
      )
      .then(() => services.search.threadChanged(threadId))
      .then(() => services.checkpoints.sweep(threadId))
      .catch((error: Error) =>
        services.log.error(`thread ${threadId}: checkpoint sweep failed: ${error.message}`),
      ),
  );
  return emit.turn('inProgress', null, null);
}

async function userEntry(input: UserInput[], cwd: string, services: Services) {
  if (input.length === 0) throw invalidParams('Invalid params: input: expected at least one input item');
  try {
    return await toUserEntry(await expandMentions(services, input, cwd), cwd);
  } catch (error) {
    if (error instanceof UserInputError) throw invalidParams(`Invalid params: input: ${error.message}`);
    throw error;
  }
}

function userMessageItem(input: UserInput[], clientId: string | null | undefined): UserMessageItem {
  return { type: 'userMessage', id: randomUUID(), content: input, ...(clientId ? { clientId } : {}) };
}
