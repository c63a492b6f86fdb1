// thread/list by section: `sectionId` keeps one section's threads (null: those in none), and
// `sortKey: section_position` lists one section's threads in its own order. That order is the
// user's (thread/section/move), not a timestamp, so its pages are cut at the last thread returned.
import type { Thread } from '../protocol/thread';
import { invalidParams } from '../rpc/rpcError';
import { passesFilters, type ListQuery } from '../threads/listing';
import type { ThreadSummary } from '../threads/summary';
import type { ThreadSections } from '../threads/threadSections';
import type { ThreadStore } from '../threads/threadStore';

const PREFIX = 'section:';

/** The filter for a thread/list `sectionId`: absent keeps every thread. */
export function sectionFilter(
  sections: ThreadSections,
  params: { sectionId?: string | null },
): ((id: string) => boolean) | undefined {
  if (params.sectionId === undefined) return undefined;
  const wanted = params.sectionId;
  if (wanted !== null && !sections.has(wanted)) {
    throw invalidParams(`Invalid params: sectionId: no thread section ${JSON.stringify(wanted)}`);
  }
  return (id) => (sections.placementOf(id)?.section.id ?? null) === wanted;
}

/** One page of a section in its order (asc: first to last; desc, the default: last to first). */
export function sectionOrderPage(
  store: ThreadStore,
  sections: ThreadSections,
  sectionId: string | null | undefined,
  query: Omit<ListQuery, 'sortKey'>,
  view: (summary: ThreadSummary) => Thread,
): { data: Thread[]; nextCursor: string | null } {
  if (typeof sectionId !== 'string') {
    throw invalidParams('Invalid params: sortKey: section_position orders one section: give its sectionId');
  }
  const ids = sections.threadsOf(sectionId);
  if (query.sortDirection !== 'asc') ids.reverse();
  const rows = ids
    .map((id) => store.get(id))
    .filter((summary): summary is ThreadSummary => !!summary && passesFilters(summary, query));
  let from = 0;
  if (query.cursor !== undefined) {
    const after = query.cursor.startsWith(PREFIX) ? query.cursor.slice(PREFIX.length) : '';
    const at = rows.findIndex((summary) => summary.id === after);
    if (at < 0) {
      throw invalidParams(
        `Invalid params: cursor: '${query.cursor.slice(0, 60)}' is not a position in this section (it moved or left)`,
      );
    }
    from = at + 1;
  }
  const page = rows.slice(from, from + query.limit);
  const more = from + query.limit < rows.length;
  return { data: page.map(view), nextCursor: more ? `${PREFIX}${page[page.length - 1]!.id}` : null };
}
