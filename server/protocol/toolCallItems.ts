// Items and server requests of the smaller tools: imageView (the model looked at a local image),
// request_user_input (the model asks the user questions; experimental) and dynamic tools (tools
// the client declared at thread/start and runs itself; experimental).
import { Type, type Static } from '@sinclair/typebox';
import { Opt, Shape, StringEnum } from './schema';

export const ImageViewItem = Type.Object({
  type: Type.Literal('imageView'),
  id: Type.String(),
  path: Type.String(),
});
export type ImageViewItem = Static<typeof ImageViewItem>;

export const DynamicToolCallOutputContentItem = Type.Union([
  Type.Object({ type: Type.Literal('inputText'), text: Type.String() }),
  Type.Object({ type: Type.Literal('inputImage'), imageUrl: Type.String() }),
  Type.Object({ type: Type.Literal('inputAudio'), audioUrl: Type.String() }),
]);
export type DynamicToolCallOutputContentItem = Static<typeof DynamicToolCallOutputContentItem>;

export const DynamicToolCallItem = Type.Object({
  type: Type.Literal('dynamicToolCall'),
  id: Type.String(),
  tool: Type.String(),
  arguments: Type.Unknown(),
  namespace: Opt(Type.String()),
  status: StringEnum(['inProgress', 'completed', 'failed']),
  contentItems: Opt(Type.Array(DynamicToolCallOutputContentItem)),
  success: Opt(Type.Boolean()),
  durationMs: Opt(Type.Integer()),
});
export type DynamicToolCallItem = Static<typeof DynamicToolCallItem>;

export const ToolRequestUserInputQuestion = Type.Object({
  id: Type.String(),
  header: Type.String(),
  question: Type.String(),
  isOther: Type.Optional(Type.Boolean()),
  isSecret: Type.Optional(Type.Boolean()),
  options: Opt(Type.Array(Type.Object({ label: Type.String(), description: Type.String() }))),
});
export type ToolRequestUserInputQuestion = Static<typeof ToolRequestUserInputQuestion>;

const TurnRef = { threadId: Type.String(), turnId: Type.String() };

export const toolCallRequests = {
  'item/tool/requestUserInput': {
    params: Shape({
      ...TurnRef,
      itemId: Type.String(),
      questions: Type.Array(ToolRequestUserInputQuestion),
      isBlocking: Type.Boolean(),
    }),
    result: Shape({
      answers: Type.Record(Type.String(), Type.Object({ answers: Type.Array(Type.String()) })),
    }),
  },
  'item/tool/call': {
    params: Shape({
      ...TurnRef,
      callId: Type.String(),
      tool: Type.String(),
      arguments: Type.Unknown(),
      namespace: Opt(Type.String()),
    }),
    result: Shape({ contentItems: Type.Array(DynamicToolCallOutputContentItem), success: Type.Boolean() }),
  },
} as const;
