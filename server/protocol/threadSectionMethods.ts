// Thread sections: user folders for threads, kept by the server (threadSection/*, thread/section/move).
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape } from './schema';

export const ThreadSectionAppearance = Type.Object({
  color: Opt(Type.String()),
  icon: Opt(Type.String()),
});
export type ThreadSectionAppearance = Static<typeof ThreadSectionAppearance>;

export const ThreadSection = Type.Object({
  /** UUIDv7, stable across renames. */
  id: Type.String(),
  name: Type.String(),
  appearance: Opt(ThreadSectionAppearance),
});
export type ThreadSection = Static<typeof ThreadSection>;

const SectionId = { sectionId: Type.String() };

export const ThreadSectionListParams = Params({
  cursor: Opt(Type.String()),
  limit: Opt(Type.Integer({ minimum: 0 })),
});
export const ThreadSectionListResponse = Shape({
  data: Type.Array(ThreadSection),
  nextCursor: Nullable(Type.String()),
});

export const ThreadSectionCreateParams = Params({
  name: Type.String(),
  appearance: Opt(ThreadSectionAppearance),
});
export const ThreadSectionResponse = Shape({ section: ThreadSection });

/** `appearance` omitted keeps it, null clears it. */
export const ThreadSectionUpdateParams = Params({
  ...SectionId,
  name: Type.String(),
  appearance: Opt(ThreadSectionAppearance),
});

export const ThreadSectionDeleteParams = Params(SectionId);

export const ThreadSectionMoveParams = Params({
  threadId: Type.String(),
  /** null takes the thread out of its section. */
  sectionId: Nullable(Type.String()),
  /** Omitted or null appends to the section. */
  beforeThreadId: Opt(Type.String()),
});

export const threadSectionNotifications = {
  /** After a thread moved into, within or out of a section (also when its section was deleted). */
  'thread/section/changed': Shape({ threadId: Type.String(), sectionId: Nullable(Type.String()) }),
};
