// threadSection/list|create|update|delete and thread/section/move: user folders for threads. The
// sections live in the home (threads/threadSections), apart from the rebuildable thread index.
import type { ThreadSectionAppearance } from '../protocol/threadSectionMethods';
import type { Peer } from '../rpc/clientConnection';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import type { Services } from '../services';

const MAX_NAME = 200;
const DEFAULT_PAGE = 100;

/** A section's name as kept: trimmed, never empty, one line, not too long. */
function sectionName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidParams('Invalid params: name: a section needs a name');
  if (/[\r\n]/.test(trimmed)) throw invalidParams('Invalid params: name: must be one line');
  if (trimmed.length > MAX_NAME)
    throw invalidParams(`Invalid params: name: longer than ${MAX_NAME} characters`);
  return trimmed;
}

/** Absent fields of an appearance are kept as null, so what comes back is what was stored. */
function appearanceOf(value: ThreadSectionAppearance | null | undefined) {
  if (value == null) return value;
  return { color: value.color ?? null, icon: value.icon ?? null };
}

export function threadSectionHandlers(services: Services): HandlerTable {
  const { sections, loaded } = services;

  /** Tells the thread's subscribers and the client that asked, after the response. */
  const changed = (peer: Peer, threadId: string, sectionId: string | null) =>
    setImmediate(() => loaded.notifyWith(peer, threadId, 'thread/section/changed', { threadId, sectionId }));

  return {
    'threadSection/list': async (params) => {
      await sections.refresh();
      const all = sections.list();
      let from = 0;
      if (params.cursor != null) {
        const after = all.findIndex((s) => s.id === params.cursor);
        if (after < 0)
          throw invalidParams(`Invalid params: cursor: '${params.cursor.slice(0, 60)}' names no section`);
        from = after + 1;
      }
      const limit = params.limit || DEFAULT_PAGE;
      const data = all.slice(from, from + limit);
      const more = from + limit < all.length;
      return { data, nextCursor: more ? data[data.length - 1]!.id : null };
    },

    'threadSection/create': async (params) => ({
      section: await sections.create(sectionName(params.name), appearanceOf(params.appearance) ?? null),
    }),

    'threadSection/update': async (params) => ({
      section: await sections.update(
        params.sectionId,
        sectionName(params.name),
        appearanceOf(params.appearance),
      ),
    }),

    // Its threads are kept and leave the section: each is announced as moved out (sectionId null).
    'threadSection/delete': async (params, { peer }) => {
      const released = await sections.delete(params.sectionId);
      for (const threadId of released) changed(peer, threadId, null);
      return {};
    },

    'thread/section/move': async (params, { peer }) => {
      const store = await services.store();
      store.require(params.threadId);
      if (params.beforeThreadId != null && params.sectionId === null) {
        throw invalidParams('Invalid params: beforeThreadId: needs a sectionId to place the thread in');
      }
      await sections.move(params.threadId, params.sectionId, params.beforeThreadId ?? null);
      changed(peer, params.threadId, params.sectionId);
      return {};
    },
  };
}
