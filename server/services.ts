// The long-lived state every method family shares. The store opens on first use (or just after
// the handshake), so starting the server and answering initialize never wait for the index.
import { AuthStore } from './account/authStore';
import { apiKeyFor, missingKeyMessage, needsApiKey } from './account/credentials';
import type { ActiveTurn } from './agent/activeTurn';
import type { CompactionLimits } from './agent/compaction';
import { UsageTotals } from './agent/usage';
import { Approvals } from './approvals/approvals';
import { ExecpolicyRules } from './approvals/execpolicyRules';
import { CommandSessions } from './exec/commandSessions';
import { loadConfig, type LoadedConfig } from './config/configFile';
import { knownContextWindow } from './config/contextWindows';
import type { ConfigDefaults, ThreadSettings } from './config/settings';
import type { ShellEnvironmentPolicy } from './exec/commandEnv';
import type { Logger } from './log';
import type { ModelClient, ProviderConfig } from './providers/types';
import { invalidParams } from './rpc/rpcError';
import { LoadedThreads } from './threads/loadedThreads';
import { ThreadStore } from './threads/threadStore';

export interface ModelAccess {
  provider: ProviderConfig;
  client: ModelClient;
  /** Why the provider cannot be used yet (no API key), or null. */
  missingKey: string | null;
}

export class Services {
  readonly loaded = new LoadedThreads();
  /** The settings of each loaded thread, as resolved when it was started or resumed. */
  readonly settings = new Map<string, ThreadSettings>();
  /** The running turn of each thread that has one. */
  readonly turns = new Map<string, ActiveTurn>();
  readonly auth: AuthStore;
  /** Server requests to the clients of each thread, and what they approved for the session. */
  readonly approvals: Approvals;
  /** Commands the model left running (exec_command sessions), per thread. */
  readonly commands = new CommandSessions();
  private readonly usage = new Map<string, UsageTotals>();
  private storePromise: Promise<ThreadStore> | undefined;
  private configPromise: Promise<LoadedConfig> | undefined;
  ready = false;

  constructor(
    readonly home: string,
    readonly log: Logger,
  ) {
    this.auth = new AuthStore(home, log);
    this.approvals = new Approvals(this.loaded, log, new ExecpolicyRules(home, log));
    this.loaded.onUnload((threadId) => {
      this.settings.delete(threadId);
      this.usage.delete(threadId);
      this.approvals.forget(threadId);
      this.commands.clean(threadId);
    });
  }

  store(): Promise<ThreadStore> {
    if (!this.storePromise) {
      this.storePromise = ThreadStore.open(this.home, this.log).then((store) => {
        this.ready = true;
        return store;
      });
      // A failure reaches every caller; this line only records it once in the log.
      this.storePromise.catch((error: Error) =>
        this.log.error(`cannot open the thread store in ${this.home}: ${error.message}`),
      );
    }
    return this.storePromise;
  }

  loadedConfig(): Promise<LoadedConfig> {
    if (!this.configPromise) {
      this.configPromise = loadConfig(this.home, this.log);
      this.configPromise
        .then((config) => (this.loaded.unloadDelayMs = (config.threadUnloadDelaySecs ?? 0) * 1000))
        .catch(() => {});
    }
    return this.configPromise;
  }

  async config(): Promise<ConfigDefaults> {
    return (await this.loadedConfig()).defaults;
  }

  /** How the environment of every command is built (exec_command, command/exec, thread/shellCommand). */
  async commandEnvironment(): Promise<ShellEnvironmentPolicy> {
    return (await this.loadedConfig()).shellEnvironment;
  }

  async agentConfig(): Promise<{
    updatePlanTool: boolean;
    compactionLimits(model: string): CompactionLimits;
  }> {
    const config = await this.loadedConfig();
    return {
      updatePlanTool: config.updatePlanTool,
      compactionLimits: (model) => ({
        contextWindow: config.contextWindow ?? knownContextWindow(model),
        autoCompactTokens: config.autoCompactTokens,
      }),
    };
  }

  async provider(id: string): Promise<ProviderConfig> {
    const { providers } = await this.loadedConfig();
    const provider = providers.get(id);
    if (!provider) {
      throw invalidParams(`unknown model provider "${id}"; configured: ${[...providers.keys()].join(', ')}`);
    }
    return provider;
  }

  /** A client for the provider with its current key (keys may change between turns). */
  async modelAccess(providerId: string): Promise<ModelAccess> {
    const provider = await this.provider(providerId);
    const apiKey = await apiKeyFor(provider, this.auth);
    const { createModelClient } = await import('./providers/index');
    return {
      provider,
      client: createModelClient(provider, apiKey),
      missingKey: !apiKey && needsApiKey(provider) ? missingKeyMessage(provider) : null,
    };
  }

  usageOf(threadId: string): UsageTotals {
    let usage = this.usage.get(threadId);
    if (!usage) this.usage.set(threadId, (usage = new UsageTotals()));
    return usage;
  }

  /** Starts loading what thread methods need, without making anyone wait for it. */
  warmUp(): void {
    setImmediate(() => {
      this.store().catch(() => {});
      this.loadedConfig().catch(() => {});
    });
  }

  /** Ends running turns (recorded as interrupted), then closes the store. */
  async close(): Promise<void> {
    const running = [...this.turns.values()];
    for (const turn of running) turn.interrupt();
    await Promise.all(running.map((turn) => turn.done));
    this.commands.closeAll();
    const store = await this.storePromise?.catch(() => undefined);
    await store?.close();
  }
}
