// thread/attachment/add|list|remove and thread/attachmentOwner/list: records a client keeps with a
// thread, stored by threads/threadAttachments. Params are bounded here, before anything is stored.
import type { Peer } from '../rpc/clientConnection';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { attachmentInputProblem } from '../threads/threadAttachments';
import type { ThreadAttachment } from '../protocol/threadAttachmentMethods';

const DEFAULT_PAGE = 50;

export function attachmentHandlers(services: Services): HandlerTable {
  const { attachments, loaded } = services;

  const checked = (fields: Record<string, string>, payload?: unknown) => {
    const problem = attachmentInputProblem(fields, payload);
    if (problem) throw invalidParams(`Invalid params: ${problem}`);
  };
  /** The thread must exist and be stored: an ephemeral one keeps nothing past its process. */
  const storedThread = async (threadId: string) => {
    const store = await services.store();
    store.require(threadId);
    if (store.isEphemeral(threadId))
      throw invalidRequest(
        `thread ${threadId} is ephemeral: it is not stored, so it cannot keep attachments`,
      );
  };
  /** Tells the thread's subscribers and the client that asked, after the response. */
  const announce = (peer: Peer, threadId: string, a: ThreadAttachment, operation: 'created' | 'deleted') =>
    setImmediate(() =>
      loaded.notifyWith(peer, threadId, 'thread/attachment/updated', {
        threadId,
        attachmentType: a.attachmentType,
        identityKey: a.identityKey,
        attachmentId: a.id,
        operation,
      }),
    );

  return {
    'thread/attachment/add': async (params, { peer }) => {
      const { threadId, attachmentType, identityKey, payload } = params;
      checked({ attachmentType, identityKey }, payload);
      await storedThread(threadId);
      const added = await attachments.add(threadId, attachmentType, identityKey, payload);
      if (added.outcome === 'created') announce(peer, threadId, added.attachment, 'created');
      return added;
    },

    'thread/attachment/list': async (params) => {
      await storedThread(params.threadId);
      const all = await attachments.list(params.threadId);
      return page(all, (a) => a.id, params);
    },

    'thread/attachment/remove': async (params, { peer }) => {
      const { threadId, attachmentType, identityKey } = params;
      checked({ attachmentType, identityKey });
      await storedThread(threadId);
      const removed = await attachments.remove(threadId, attachmentType, identityKey);
      if (!removed) {
        throw invalidRequest(
          `thread ${threadId} has no ${JSON.stringify(attachmentType)} attachment ${JSON.stringify(identityKey)}`,
        );
      }
      announce(peer, threadId, removed, 'deleted');
      return {};
    },

    // Owners the store no longer knows (deleted by another process) are left out.
    'thread/attachmentOwner/list': async (params) => {
      checked({ attachmentType: params.attachmentType, identityKey: params.identityKey });
      const store = await services.store();
      const owners = (await attachments.owners(params.attachmentType, params.identityKey))
        .map((threadId) => ({ threadId, archived: store.get(threadId)?.archived }))
        .filter((o): o is { threadId: string; archived: boolean } => o.archived !== undefined)
        .filter((o) => params.archived == null || o.archived === params.archived);
      return page(owners, (o) => o.threadId, params);
    },
  };
}

/** One page after the cursor, which is the key of the last entry of the page before. */
function page<T>(
  all: T[],
  keyOf: (entry: T) => string,
  params: { cursor?: string | null; limit?: number | null },
): { data: T[]; nextCursor: string | null } {
  let from = 0;
  if (params.cursor != null) {
    const after = all.findIndex((entry) => keyOf(entry) === params.cursor);
    if (after < 0)
      throw invalidParams(
        `Invalid params: cursor: '${params.cursor.slice(0, 60)}' is not one this method gave`,
      );
    from = after + 1;
  }
  const limit = params.limit || DEFAULT_PAGE;
  const data = all.slice(from, from + limit);
  const more = from + limit < all.length;
  return { data, nextCursor: more ? keyOf(data[data.length - 1]!) : null };
}
