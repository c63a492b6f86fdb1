// What we know about model families that models endpoints do not say: a description, the
// reasoning efforts a picker may offer, and whether the model belongs in a picker at all (OpenAI
// lists embedding, speech and image models beside the chat ones). Ids we do not recognise (local
// models on Ollama, LM Studio, vLLM) are listed as they are, without effort options.
import type { InputModality, Model, ReasoningEffortOption } from '../protocol/modelMethods';

const EFFORTS: Record<string, string> = {
  none: 'No reasoning: the fastest answers',
  minimal: 'As little reasoning as possible, for quick answers',
  low: 'Light reasoning, for fast answers to clear tasks',
  medium: 'Balances speed and depth of reasoning for everyday work',
  high: 'Deeper reasoning for complex problems',
  xhigh: 'The deepest reasoning, for the hardest problems',
};

interface Family {
  match: RegExp;
  description: string;
  efforts: string[];
  modalities?: InputModality[];
  hidden?: true;
}

const TEXT_AND_IMAGE: InputModality[] = ['text', 'image'];

// First match wins, so narrower patterns come before broader ones.
const FAMILIES: Family[] = [
  {
    match:
      /^(text-embedding|omni-moderation|text-moderation|tts-|whisper|dall-e|gpt-image|babbage|davinci|sora)|-(tts|transcribe|realtime|audio|search)(-|$)/,
    description: 'Not a chat model',
    efforts: [],
    hidden: true,
  },
  {
    match: /^gpt-5(\.\d+)?-codex-max/,
    description: 'Codex model for long, project-scale agentic coding',
    efforts: ['low', 'medium', 'high', 'xhigh'],
  },
  {
    match: /^gpt-5(\.\d+)?-codex-mini/,
    description: 'Smaller, cheaper Codex model',
    efforts: ['medium', 'high'],
  },
  {
    match: /^gpt-5(\.\d+)?-codex/,
    description: 'GPT-5 tuned for agentic coding',
    efforts: ['low', 'medium', 'high'],
  },
  {
    match: /^gpt-5(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/,
    description: "OpenAI's GPT-5 reasoning model",
    efforts: ['minimal', 'low', 'medium', 'high'],
  },
  {
    match: /^gpt-5\.\d+(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/,
    description: "OpenAI's GPT-5 reasoning model",
    efforts: ['low', 'medium', 'high'],
  },
  {
    match: /^gpt-5-chat/,
    description: 'GPT-5 without reasoning, as used in ChatGPT',
    efforts: [],
  },
  { match: /^(o1|o3|o4)(-|$)/, description: 'OpenAI reasoning model', efforts: ['low', 'medium', 'high'] },
  {
    match: /^(gpt-4\.1|gpt-4o|chatgpt-4o)/,
    description: 'OpenAI GPT-4 model without reasoning',
    efforts: [],
  },
  { match: /^gpt-(4|3\.5)/, description: 'Older OpenAI chat model', efforts: [], hidden: true },
  {
    match: /^gpt-oss/,
    description: "OpenAI's open-weight reasoning model",
    efforts: ['low', 'medium', 'high'],
    modalities: ['text'],
  },
  {
    match: /^claude-(opus|sonnet|haiku)-\d|^claude-3-7-sonnet/,
    description: 'Claude with extended thinking (the effort sets its thinking budget)',
    efforts: ['none', 'low', 'medium', 'high'],
  },
  { match: /^claude-/, description: 'Claude without extended thinking', efforts: [] },
];

/** Models to offer when a provider's models endpoint cannot be reached. */
const FALLBACK_MODELS: Record<string, readonly string[]> = {
  openai: ['gpt-5.1-codex', 'gpt-5.1-codex-mini', 'gpt-5.1', 'gpt-5', 'gpt-5-mini', 'o4-mini', 'gpt-4.1'],
  anthropic: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
};

export function fallbackModels(providerId: string): readonly string[] {
  return Object.hasOwn(FALLBACK_MODELS, providerId) ? FALLBACK_MODELS[providerId]! : [];
}

/** The protocol's Model for an id a provider serves. */
export function describeModel(id: string, providerName: string, isDefault: boolean): Model {
  const family = FAMILIES.find((f) => f.match.test(id));
  const efforts: ReasoningEffortOption[] = (family?.efforts ?? []).map((effort) => ({
    reasoningEffort: effort,
    description: EFFORTS[effort]!,
  }));
  return {
    id,
    model: id,
    displayName: id,
    description: family ? `${family.description} (${providerName})` : `Served by ${providerName}`,
    // The configured model stays visible whatever its family, so a picker can show the current choice.
    hidden: !isDefault && family?.hidden === true,
    isDefault,
    supportedReasoningEfforts: efforts,
    // The schema wants an effort even for models without any; "none" says so.
    defaultReasoningEffort: efforts.some((e) => e.reasoningEffort === 'medium')
      ? 'medium'
      : (efforts[0]?.reasoningEffort ?? 'none'),
    // Unknown (mostly local) models are assumed to read text only, so clients do not send images
    // a server would reject.
    inputModalities: family?.modalities ?? (family ? TEXT_AND_IMAGE : ['text']),
    upgrade: null,
  };
}
