// The rate limits each provider last reported (its response headers), in the protocol's snapshot
// shape: the request limit as the primary window, the token limit as the secondary one.
import type { Static } from '@sinclair/typebox';
import type { RateLimitSnapshot } from '../protocol/accountMethods';
import type { RateLimits, RateLimitWindow } from '../providers/types';

export type Snapshot = Static<typeof RateLimitSnapshot>;

export class RateLimitBook {
  private readonly byProvider = new Map<string, Snapshot>();

  record(providerId: string, providerName: string, limits: RateLimits): Snapshot {
    const snapshot = {
      limitId: providerId,
      limitName: providerName,
      primary: window(limits.requests),
      secondary: window(limits.tokens),
    };
    this.byProvider.set(providerId, snapshot);
    return snapshot;
  }

  /** What the provider last said, or empty windows when it never said anything. */
  of(providerId: string, providerName: string): Snapshot {
    return (
      this.byProvider.get(providerId) ?? {
        limitId: providerId,
        limitName: providerName,
        primary: null,
        secondary: null,
      }
    );
  }

  all(): Record<string, Snapshot> {
    return Object.fromEntries(this.byProvider);
  }
}

function window(limits: RateLimitWindow | null) {
  if (!limits) return null;
  const used = Math.round(((limits.limit - limits.remaining) / limits.limit) * 100);
  return {
    usedPercent: Math.max(0, Math.min(100, used)),
    windowDurationMins: null,
    resetsAt: limits.resetsAt,
  };
}
