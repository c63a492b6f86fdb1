// Items of the smaller tools: imageView (the model looked at a local image).
import { Type, type Static } from '@sinclair/typebox';

export const ImageViewItem = Type.Object({
  type: Type.Literal('imageView'),
  id: Type.String(),
  path: Type.String(),
});
export type ImageViewItem = Static<typeof ImageViewItem>;
