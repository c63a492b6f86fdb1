// skills/list, skills/config/write, skills/extraRoots/set, and the remote-skill methods, which the spec marks as under
// development and this server does not serve.
import { isAbsolute, resolve } from 'node:path';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable, RequestContext } from '../rpc/dispatcher';
import { invalidParams, invalidRequest } from '../rpc/rpcError';
import type { Services } from '../services';
import { SkillLookupError } from '../skills/skillCatalog';
import { SkillConfigError, writeSkillEnabled } from '../skills/skillConfig';

const remoteRefused = (method: string) => () => {
  throw invalidRequest(
    `${method} is under development in the app-server spec ("do not call from production clients yet"); Threadline does not serve remote skills`,
  );
};

export function skillHandlers(services: Services): HandlerTable {
  return {
    'skills/list': async (params: ParamsOf<'skills/list'>): Promise<ResultOf<'skills/list'>> => {
      const cwds = params.cwds && params.cwds.length > 0 ? params.cwds : [process.cwd()];
      const extra = new Map<string, string[]>();
      // Extra roots are for the cwds asked about; others are ignored, as the spec says.
      for (const { cwd, extraUserRoots } of params.perCwdExtraUserRoots ?? []) {
        extra.set(resolve(cwd), [...(extra.get(resolve(cwd)) ?? []), ...extraUserRoots]);
      }
      const data = await Promise.all(
        cwds.map((cwd) =>
          services.skills.list(resolve(cwd), extra.get(resolve(cwd)) ?? [], params.forceReload ?? false),
        ),
      );
      return { data };
    },

    'skills/config/write': async (
      params: ParamsOf<'skills/config/write'>,
      { peer }: RequestContext,
    ): Promise<ResultOf<'skills/config/write'>> => {
      try {
        const path = await services.skills.resolveTarget(params);
        await writeSkillEnabled(services.home, path, params.enabled);
        services.log.info(`skill ${path} turned ${params.enabled ? 'on' : 'off'}`);
      } catch (error) {
        if (error instanceof SkillLookupError) throw invalidParams(`Invalid params: ${error.message}`);
        if (error instanceof SkillConfigError) throw invalidRequest(error.message);
        throw error;
      }
      setImmediate(() => peer.notify('skills/changed', {}));
      return { effectiveEnabled: params.enabled };
    },

    'skills/extraRoots/set': (params: ParamsOf<'skills/extraRoots/set'>, { peer }: RequestContext) => {
      const relative = params.extraRoots.findIndex((root) => !isAbsolute(root));
      if (relative >= 0) {
        throw invalidParams(
          `Invalid params: extraRoots.${relative}: expected an absolute path (got ${JSON.stringify(params.extraRoots[relative])})`,
        );
      }
      services.skills.setExtraRoots(params.extraRoots);
      services.log.info(
        `skills: extra roots set to ${params.extraRoots.length ? params.extraRoots.join(', ') : 'none'}`,
      );
      setImmediate(() => peer.notify('skills/changed', {}));
      return {};
    },

    'skills/remote/list': remoteRefused('skills/remote/list'),
    'skills/remote/export': remoteRefused('skills/remote/export'),
  };
}
