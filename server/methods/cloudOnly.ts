// The reference's methods that only work with a ChatGPT account or OpenAI's cloud. Threadline signs
// in with API keys and keeps everything local, so each answers -32600 (as a ChatGPT sign-in does)
// with the reason; the dispatcher has checked the params first. The coverage table in docs/protocol.md quotes these.
import type { ClientMethod } from '../protocol/methods';
import type { Handler, HandlerTable } from '../rpc/dispatcher';
import { invalidRequest } from '../rpc/rpcError';

const CHATGPT_ACCOUNT =
  'it needs a ChatGPT account, and Threadline signs in with API keys only (account/login/start with type "apiKey")';
const GATEWAY =
  "it signs in through OpenAI's model gateway; Threadline's providers use API keys (account/login/start with type \"apiKey\", or the provider's env_key)";
const PLUGIN_SHARING =
  "plugin sharing publishes to OpenAI's cloud plugin directory; Threadline installs plugins from local marketplaces only";

/** Each refused method and why, in the words its error uses. */
export const cloudOnlyReasons = {
  'account/gatewayOAuth/read': GATEWAY,
  'account/gatewayOAuth/login': GATEWAY,
  'account/gatewayOAuth/cancel': GATEWAY,
  'account/rateLimitResetCredit/consume': CHATGPT_ACCOUNT,
  'account/sendAddCreditsNudgeEmail': CHATGPT_ACCOUNT,
  'account/workspaceMessages/read': CHATGPT_ACCOUNT,
  'account/securitySetup/read': CHATGPT_ACCOUNT,
  'thread/approveGuardianDeniedAction':
    "Threadline has no guardian reviewer (the reference's cloud-model review of approvals), so nothing was denied by one; approvals are asked of you",
  'plugin/share/save': PLUGIN_SHARING,
  'plugin/share/updateTargets': PLUGIN_SHARING,
  'plugin/share/list': PLUGIN_SHARING,
  'plugin/share/checkout': PLUGIN_SHARING,
  'plugin/share/delete': PLUGIN_SHARING,
} as const satisfies Partial<Record<ClientMethod, string>>;

type CloudOnlyMethod = keyof typeof cloudOnlyReasons;

export const cloudOnlyMessage = (method: CloudOnlyMethod) =>
  `${method} is not available in Threadline: ${cloudOnlyReasons[method]}`;

export function cloudOnlyHandlers(): HandlerTable {
  const refuse =
    (method: CloudOnlyMethod): Handler<CloudOnlyMethod> =>
    () => {
      throw invalidRequest(cloudOnlyMessage(method));
    };
  return Object.fromEntries(
    (Object.keys(cloudOnlyReasons) as CloudOnlyMethod[]).map((method) => [method, refuse(method)]),
  ) as HandlerTable;
}
