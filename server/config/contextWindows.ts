// How many tokens a model's context holds, for automatic compaction. Only families we know;
// `model_context_window` in config.toml covers the rest.
const WINDOWS: [RegExp, number][] = [
  [/^gpt-5/, 272_000],
  [/^gpt-4\.1/, 1_000_000],
  [/^(gpt-4o|gpt-4-turbo)/, 128_000],
  [/^(o3|o4)/, 200_000],
  [/^claude-(opus|sonnet)-4/, 200_000],
  [/^claude/, 200_000],
];

export function knownContextWindow(model: string): number | null {
  return WINDOWS.find(([pattern]) => pattern.test(model))?.[1] ?? null;
}
