// What a user sends in a turn: text, images, skills and mentions.
import { Type, type Static } from '@sinclair/typebox';
import { Opt, StringEnum } from './schema';

const ImageDetail = StringEnum(['auto', 'low', 'high', 'original']);

export const TextElement = Type.Object({
  byteRange: Type.Object({ start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }) }),
  placeholder: Opt(Type.String()),
});

export const UserInput = Type.Union([
  Type.Object({
    type: Type.Literal('text'),
    text: Type.String(),
    text_elements: Type.Optional(Type.Array(TextElement)),
  }),
  Type.Object({ type: Type.Literal('image'), url: Type.String(), detail: Opt(ImageDetail) }),
  Type.Object({ type: Type.Literal('localImage'), path: Type.String(), detail: Opt(ImageDetail) }),
  Type.Object({ type: Type.Literal('skill'), name: Type.String(), path: Type.String() }),
  Type.Object({ type: Type.Literal('mention'), name: Type.String(), path: Type.String() }),
]);
export type UserInput = Static<typeof UserInput>;
