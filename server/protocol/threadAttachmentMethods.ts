// Thread attachments: records a client keeps with a thread (a worktree, a pull request, a ticket),
// each named by its type and identity key, with an opaque JSON payload (thread/attachment/*,
// thread/attachmentOwner/list). Shapes of the reference schema.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Opt, Params, Seconds, Shape, StringEnum } from './schema';

export const ThreadAttachment = Type.Object({
  /** UUIDv7, given when the attachment was created. */
  id: Type.String(),
  attachmentType: Type.String(),
  identityKey: Type.String(),
  /** Any JSON the client gave; never read by the server, never sent to the model. */
  payload: Type.Unknown(),
  createdAt: Seconds,
});
export type ThreadAttachment = Static<typeof ThreadAttachment>;

const Identity = { attachmentType: Type.String(), identityKey: Type.String() };
const Page = { cursor: Opt(Type.String()), limit: Opt(Type.Integer({ minimum: 0 })) };

export const ThreadAttachmentAddParams = Params({
  threadId: Type.String(),
  ...Identity,
  payload: Type.Unknown(),
});
export const ThreadAttachmentAddResponse = Shape({
  /** `existing`: the thread already had this type and identity key; its attachment is answered unchanged. */
  outcome: StringEnum(['created', 'existing']),
  attachment: ThreadAttachment,
});

export const ThreadAttachmentListParams = Params({ threadId: Type.String(), ...Page });
export const ThreadAttachmentListResponse = Shape({
  data: Type.Array(ThreadAttachment),
  nextCursor: Nullable(Type.String()),
});

export const ThreadAttachmentRemoveParams = Params({ threadId: Type.String(), ...Identity });
export const ThreadAttachmentRemoveResponse = Shape({});

export const ThreadAttachmentOwnerListParams = Params({
  ...Identity,
  /** Omitted or null: every owner; false: unarchived threads only; true: archived only. */
  archived: Opt(Type.Boolean()),
  ...Page,
});
export const ThreadAttachmentOwnerListResponse = Shape({
  data: Type.Array(Type.Object({ threadId: Type.String(), archived: Type.Boolean() })),
  nextCursor: Nullable(Type.String()),
});

export const threadAttachmentNotifications = {
  /** After an attachment was created or removed. */
  'thread/attachment/updated': Shape({
    threadId: Type.String(),
    attachmentType: Type.String(),
    identityKey: Type.String(),
    attachmentId: Type.String(),
    operation: StringEnum(['created', 'deleted']),
  }),
};
