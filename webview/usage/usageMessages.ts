// The usage panel's messages, host ⇄ webview, imported by both sides (extension/usage/usagePanel.ts
// and webview/usage/). The host answers `ready` and `refresh` with the server's account/usage/read.
import type { AccountUsageReadResponse } from '../../server/protocol/usageMethods';

export type UsageHostMessage =
  | { type: 'usage'; usage: AccountUsageReadResponse }
  | { type: 'loading' }
  | { type: 'error'; message: string };

export type UsageViewMessage =
  | { type: 'ready' }
  | { type: 'refresh' }
  | { type: 'openThread'; threadId: string }
  /** Opens config.toml, where the price table lives. */
  | { type: 'editPrices' };
