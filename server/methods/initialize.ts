// `initialize`: completes the connection's handshake and describes this server.
import { platform, release, arch } from 'node:os';
import type { HandlerTable } from '../rpc/dispatcher';
import type { ParamsOf, ResultOf } from '../protocol/methods';

export function platformOs(): string {
  if (process.platform === 'darwin') return 'macos';
  if (process.platform === 'win32') return 'windows';
  return process.platform;
}

export function initializeHandlers(home: string, afterHandshake: () => void): HandlerTable {
  return {
    initialize: (params: ParamsOf<'initialize'>, { peer }): ResultOf<'initialize'> => {
      const { clientInfo } = params;
      const experimentalApi = params.capabilities?.experimentalApi === true;
      peer.completeHandshake({
        clientInfo,
        experimentalApi,
        optOutNotificationMethods: params.capabilities?.optOutNotificationMethods ?? [],
      });
      afterHandshake();
      const client = `${clientInfo.name}/${clientInfo.version}`;
      return {
        userAgent: `threadline/${__THREADLINE_VERSION__} (${platform()} ${release()}; ${arch()}) ${client}`,
        codexHome: home,
        platformFamily: process.platform === 'win32' ? 'windows' : 'unix',
        platformOs: platformOs(),
        ...(experimentalApi ? { threadline: { acceptWithEdits: true, turnChanges: true } } : {}),
      };
    },
  };
}
