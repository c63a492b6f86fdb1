// The official clients, bundled apart (dist/server-sdks.js): only listing a provider's models uses
// them, and loading them costs a turn about 7 MiB of resident memory it does not need.
export { default as OpenAI } from 'openai';
export { default as Anthropic } from '@anthropic-ai/sdk';
