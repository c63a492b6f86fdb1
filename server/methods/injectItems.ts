// thread/inject_items: raw Responses API items a client adds to a thread's model-visible history.
// They are appended after the last turn (a record in the rollout, so they survive a restart) and
// reach the model with the next turn's request; earlier requests are never rewritten, so each
// request stays an exact prefix of the next (the prompt cache depends on it).
import type { Handler } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { codexModelEntry, isObject } from '../threads/codexItems';
import type { ModelEntry } from '../threads/records';

/** A Responses item as a model entry; developer messages too (the rollout reader skips those). */
function injectedEntry(item: unknown): ModelEntry | undefined {
  if (isObject(item) && item.type === 'message' && item.role === 'developer' && Array.isArray(item.content)) {
    const texts = item.content.map((part) =>
      isObject(part) && typeof part.text === 'string' ? part.text : '',
    );
    return { kind: 'developer', text: texts.join('') };
  }
  return codexModelEntry(item);
}

export function injectItemsHandler(services: Services): Handler<'thread/inject_items'> {
  return async (params) => {
    const store = await services.store();
    store.require(params.threadId);
    const entries = params.items.map((item, index) => {
      const entry = injectedEntry(item);
      if (!entry)
        throw invalidParams(
          `Invalid params: items[${index}]: not a Responses API item Threadline can send ` +
            `(message, reasoning, function_call, function_call_output, custom_tool_call or its output)`,
        );
      return entry;
    });
    // A running turn is mid-request: items slipped in now would land between its tool calls and
    // their results. Wait for the turn to end (or steer it with turn/steer). Checked inside the
    // store's exclusive append, so a turn starting meanwhile cannot slip in between.
    const refuseWhileRunning = () => {
      const turn = services.loaded.get(params.threadId)?.turn;
      if (turn)
        throw invalidRequest(
          `a turn is running on thread ${params.threadId} (${turn.turnId}): inject items after it ends, or use turn/steer`,
        );
    };
    refuseWhileRunning();
    if (entries.length)
      await store.appendFrom(params.threadId, () => {
        refuseWhileRunning();
        return [{ type: 'injected', ts: Date.now(), entries }];
      });
    return {};
  };
}
