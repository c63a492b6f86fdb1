// permissionProfile/list: the permission presets, each allowed unless requirements.toml forbids its
// approval policy or sandbox mode. Where no sandbox works here, the description says so: the presets
// still hold, because every command that would have been confined asks first.
import { approvalAllowed, sandboxAllowed } from '../config/requirements';
import { permissionPresets, type PermissionPreset } from '../config/permissionProfiles';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import { invalidParams } from '../rpc/rpcError';
import { sandboxAvailability } from '../sandbox/sandbox';
import type { Services } from '../services';

export function permissionProfileHandlers(services: Services): HandlerTable {
  return {
    'permissionProfile/list': async (
      params: ParamsOf<'permissionProfile/list'>,
    ): Promise<ResultOf<'permissionProfile/list'>> => {
      const start = params.cursor ? offsetOf(params.cursor) : 0;
      const requirements = await services.configuration.requirements();
      const sandbox = await sandboxAvailability();
      const unconfined = sandbox.kind === 'none' ? sandbox.reason : null;
      const describe = (preset: PermissionPreset) =>
        `${preset.summary} (approval ${preset.approvalPolicy}, sandbox ${preset.sandboxMode})` +
        (unconfined && preset.sandboxMode !== 'danger-full-access'
          ? `; no sandbox here (${unconfined}), so every command asks first`
          : '');
      const all = permissionPresets.map((preset) => ({
        id: preset.id,
        description: describe(preset),
        allowed:
          approvalAllowed(requirements, preset.approvalPolicy) &&
          sandboxAllowed(requirements, preset.sandboxMode),
      }));
      const end = params.limit ? start + params.limit : all.length;
      return { data: all.slice(start, end), nextCursor: end < all.length ? String(end) : null };
    },
  };
}

/** Cursors are an offset into the presets' list. */
function offsetOf(cursor: string): number {
  const offset = /^\d+$/.test(cursor) ? Number(cursor) : NaN;
  if (!(offset <= permissionPresets.length))
    throw invalidParams(`Invalid params: cursor: "${cursor}" is not one this method gave`);
  return offset;
}
