// How full the model's context window is, from thread/tokenUsage/updated, and how much of the last
// request's input the provider read from its prompt cache (billed at a fraction), so a user can see
// caching work.
import { formatTokens } from './fields';
import { useView } from './hooks';

export function ContextMeter() {
  const usage = useView((s) => s.tokenUsage);
  if (!usage) return null;
  const used = usage.last.inputTokens + usage.last.outputTokens;
  const window = usage.modelContextWindow;
  const percent = window ? Math.min(100, Math.round((used / window) * 100)) : null;
  const { inputTokens, cachedInputTokens } = usage.last;
  const fill = percent === null ? `${formatTokens(used)} tokens in context` : `${percent}% of context used`;
  const label = cachedInputTokens > 0 ? `${fill} · ${formatTokens(cachedInputTokens)} cached` : fill;
  const title = [
    ...(window ? [`${used} of ${window} tokens`] : []),
    ...(inputTokens > 0
      ? [`${cachedInputTokens} of ${inputTokens} input tokens read from the prompt cache`]
      : []),
  ].join('\n');
  return (
    <div className="tl-meter" title={title || undefined}>
      {percent !== null && (
        <div
          className="tl-meter-bar"
          role="meter"
          aria-label="Context window"
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div
            className={`tl-meter-fill${percent >= 85 ? ' tl-meter-high' : ''}`}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
      <span className="tl-muted">{label}</span>
    </div>
  );
}
