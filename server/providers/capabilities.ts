// What each wire gives the model besides the tools the loop defines (modelProvider/capabilities/read).
// The loop sends only function and freeform tools (ToolSpec in types.ts) and never a provider's
// hosted ones, so no wire offers hosted web search or image generation through Threadline, even
// where the endpoint itself has them. Turning one on means adding it to the wire and here.
import type { WireApi } from './types';

export interface HostedTools {
  webSearch: boolean;
  imageGeneration: boolean;
}

export const hostedToolsByWire: Readonly<Record<WireApi, HostedTools>> = {
  responses: { webSearch: false, imageGeneration: false },
  chat: { webSearch: false, imageGeneration: false },
  anthropic: { webSearch: false, imageGeneration: false },
};
