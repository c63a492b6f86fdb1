// Updates to an item in progress that carry no text delta: a proposed patch replaced while the model
// still streams it (an MCP tool call's progress line is in mcp.ts). Shape as in the reference schema.
import { Type } from '@sinclair/typebox';
import { FileUpdateChange } from './fileChange';
import { Shape } from './schema';

const ItemRef = { threadId: Type.String(), turnId: Type.String(), itemId: Type.String() };

export const itemUpdateNotifications = {
  'item/fileChange/patchUpdated': Shape({ ...ItemRef, changes: Type.Array(FileUpdateChange) }),
} as const;
