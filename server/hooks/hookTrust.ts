// Trust in a project's hooks, held as trust in a project's MCP servers is: a hook a repository
// defines runs only once the user said yes to that exact definition (its file, event, matcher and
// handler: HookDefinition.hash), asked with the same question during a turn; a changed definition
// asks again, "Not now" holds until a restart, and under `never` nobody is asked so only hooks
// trusted before run. Trust is kept in $THREADLINE_HOME/trusted-hooks.json, out of the agent's reach.
// (The question itself is askToTrustHook in turnHooks.ts; this module loads with the services.)
import type { Logger } from '../log';
import { McpTrust } from '../mcp/projectServers';
import type { HookDefinition } from './hookConfig';

export class ProjectHookTrust {
  private readonly store: McpTrust;
  /** Definitions the user declined; asked again after a restart. */
  private readonly declined = new Set<string>();

  constructor(home: string) {
    this.store = new McpTrust(home, 'trusted-hooks.json');
  }

  trusted(hook: HookDefinition): Promise<boolean> {
    return this.store.trusted(hook.hash);
  }

  /** The hooks of `project` that may run: trusted before, or trusted now by `ask` (null: nobody to ask). */
  async admit(
    project: HookDefinition[],
    ask: ((hook: HookDefinition) => Promise<boolean>) | null,
    log: Logger,
  ): Promise<HookDefinition[]> {
    const admitted: HookDefinition[] = [];
    for (const hook of project) {
      let trusted = await this.store.trusted(hook.hash);
      if (!trusted && ask && !this.declined.has(hook.hash)) {
        trusted = await ask(hook);
        if (trusted) await this.store.trust(hook.hash);
        else this.declined.add(hook.hash);
        log.info(`hook ${hook.key}: ${trusted ? 'trusted' : 'not trusted'} by the user`);
      }
      if (trusted) admitted.push(hook);
    }
    return admitted;
  }
}
