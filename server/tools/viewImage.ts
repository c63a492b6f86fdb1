// view_image: the model looks at an image file on disk. The image is read here and goes back to
// the model as the tool's output (an image part); clients see an imageView item.
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArguments, ToolInputError, type AgentTool } from '../agent/tool';
import { imageDataUrl, UserInputError } from '../agent/userInput';
import type { ImageViewItem } from '../protocol/toolCallItems';

export const viewImageTool: AgentTool = {
  spec: {
    kind: 'function',
    name: 'view_image',
    description:
      'Looks at a local image file (PNG, JPEG, GIF or WebP) and adds it to the conversation. Use it for images you did not receive as input, such as screenshots a command produced.',
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Path of the image, relative to the working directory or absolute.',
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },

  async run(call, { cwd, emit }) {
    const { path } = parseArguments(call);
    if (typeof path !== 'string' || path === '')
      throw new ToolInputError('view_image needs `path`, a string');
    const absolute = resolve(cwd, path);
    let url: string;
    try {
      url = await imageDataUrl(absolute, 'view_image');
    } catch (error) {
      if (error instanceof UserInputError) throw new ToolInputError(error.message);
      throw error;
    }
    const item: ImageViewItem = { type: 'imageView', id: randomUUID(), path: absolute };
    emit.itemStarted(item);
    await emit.itemCompleted(item);
    return { output: [{ type: 'image', url }] };
  },
};
