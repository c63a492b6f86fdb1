// The long-lived state every method family shares. The store opens on first use (or just after
// the handshake), so starting the server and answering initialize never wait for the index.
import { ThreadSections } from './threads/threadSections';
import { ThreadAttachments } from './threads/threadAttachments';
import { existsSync } from 'node:fs';
import { AuthStore } from './account/authStore';
import { RateLimitBook } from './account/rateLimits';
import { apiKeyFor, missingKeyMessage, needsApiKey } from './account/credentials';
import type { CompactionLimits } from './agent/compaction';
import { Approvals } from './approvals/approvals';
import { ExecpolicyRules } from './approvals/execpolicyRules';
import { codexHistoryRoot } from './config/codexHistory';
import { loadConfig, type LoadedConfig } from './config/configFile';
import { knownContextWindow } from './config/contextWindows';
import { ConfigService } from './config/configService';
import { approvalAllowed, sandboxAllowed, sandboxModeOf } from './config/requirements';
import { effectiveSandboxPolicy, type ConfigDefaults, type ThreadSettings } from './config/settings';
import type { Table } from './config/tomlFile';
import type { ShellEnvironmentPolicy } from './exec/commandEnv';
import { selectShell, type CommandShell } from './exec/shellSelection';
import { LoadedThread } from './loadedThread';
import { RecentLines, type Logger } from './log';
import type { ModelClient, ProviderConfig } from './providers/types';
import { invalidParams } from './rpc/rpcError';
import { CheckpointStore } from './checkpoints/checkpointStore';
import { TurnCheckpointWriter } from './checkpoints/turnCheckpoint';
import { ThreadSearch } from './search/threadSearch';
import { AppDirectory } from './apps/appDirectory';
import { PluginStore } from './plugins/pluginStore';
import { SkillCatalog } from './skills/skillCatalog';
import { LoadedThreads } from './threads/loadedThreads';
import { McpAuth } from './mcp/oauth';
import { McpRegistry } from './mcp/registry';
import { McpTrust } from './mcp/projectServers';
import { ProjectHookTrust } from './hooks/hookTrust';
import { ThreadStore } from './threads/threadStore';

export interface ModelAccess {
  provider: ProviderConfig;
  client: ModelClient;
  /** Why the provider cannot be used yet (no API key), or null. */
  missingKey: string | null;
}

export class Services {
  /** The loaded threads, each with its settings, running turn, usage, grants and commands. */
  readonly loaded = new LoadedThreads((threadId) => new LoadedThread(threadId));
  readonly auth: AuthStore;
  /** Server requests to the clients of each thread. */
  readonly approvals: Approvals;
  /** What each provider's response headers last said of its rate limits. */
  readonly rateLimits = new RateLimitBook();
  /** The MCP servers of config.toml, shared by every thread. */
  readonly mcp: McpRegistry;
  /** What each turn changed on disk, so it can be undone. */
  readonly checkpoints: CheckpointStore;
  /** Full-text search over every thread (thread/list's searchTerm). */
  readonly search: ThreadSearch;
  /** The skills each working directory sees (skills/list, `$name` in turns). */
  readonly skills: SkillCatalog;
  /** Apps from config.toml and installed plugins (app/list, `app://` mentions). */
  readonly apps: AppDirectory;
  /** Plugins installed under the home, and the skills, apps and MCP servers they bring. */
  readonly plugins: PluginStore;
  /** User folders for threads and which thread sits in which (threadSection/*). */
  readonly sections: ThreadSections;
  /** What clients keep with each thread (thread/attachment/*). */
  readonly attachments: ThreadAttachments;
  /** Which of projects' own hooks the user trusted (or declined, until a restart). */
  readonly hookTrust: ProjectHookTrust;
  private storePromise: Promise<ThreadStore> | undefined;
  private configPromise: Promise<LoadedConfig> | undefined;
  ready = false;
  private started: (() => void) | undefined;
  private closing = false;

  /** Layers, writes, requirements and feature flags of the config. */
  readonly configuration: ConfigService;

  constructor(
    readonly home: string,
    readonly log: Logger,
    /** What the log said lately (feedback/upload). */
    readonly recentLog = new RecentLines(),
    flags: Table = {},
  ) {
    this.configuration = new ConfigService(home, flags, log, () => (this.configPromise = undefined));
    this.auth = new AuthStore(home, log);
    this.checkpoints = new CheckpointStore(home, log);
    this.search = new ThreadSearch(home, log, () => this.store());
    this.approvals = new Approvals(this.loaded, log, new ExecpolicyRules(home, log));
    this.mcp = new McpRegistry(
      async (fresh) => (fresh ? await loadConfig(home, log) : await this.loadedConfig()).mcpServers,
      new McpAuth(this.auth, log),
      new McpTrust(home),
      log,
    );
    this.plugins = new PluginStore(home);
    this.sections = new ThreadSections(home, log);
    this.attachments = new ThreadAttachments(home);
    this.hookTrust = new ProjectHookTrust(home);
    this.skills = new SkillCatalog(home, () => this.plugins.skillRoots());
    this.apps = new AppDirectory(home, async () => {
      const { apps, mcpServers } = await this.plugins.contributions();
      return { apps, mcpServers: Object.keys(mcpServers) };
    });
  }

  store(): Promise<ThreadStore> {
    if (!this.storePromise) {
      this.storePromise = this.openStore().then((store) => {
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

  private async openStore(): Promise<ThreadStore> {
    const { codexHistory } = await this.loadedConfig();
    // Thread views show their section synchronously: the sections are read before any view is made.
    await this.sections.refresh();
    return ThreadStore.open(this.home, this.log, { codexHome: codexHistoryRoot(codexHistory, this.home) });
  }

  loadedConfig(): Promise<LoadedConfig> {
    if (!this.configPromise) {
      this.configPromise = loadConfig(this.home, this.log, this.configuration.flags);
      this.configPromise
        .then((config) => (this.loaded.unloadDelayMs = (config.threadUnloadDelaySecs ?? 0) * 1000))
        .catch(() => {});
    }
    return this.configPromise;
  }

  /**
   * The defaults of a new thread: config.toml's, under those of the trusted project `cwd` is in (its
   * `.threadline/config.toml`, which may not set the approval policy or sandbox) and the -c flags; a
   * policy requirements.toml forbids gives way to the first it allows.
   */
  async config(cwd: string | null = null): Promise<ConfigDefaults> {
    const { defaults } =
      cwd === null
        ? await this.loadedConfig()
        : await loadConfig(this.home, this.log, this.configuration.flags, cwd);
    const requirements = await this.configuration.requirements();
    return {
      ...defaults,
      approvalPolicy: approvalAllowed(requirements, defaults.approvalPolicy)
        ? defaults.approvalPolicy
        : (requirements?.allowedApprovalPolicies?.[0] ?? 'untrusted'),
      sandboxMode: sandboxAllowed(requirements, defaults.sandboxMode)
        ? defaults.sandboxMode
        : (requirements?.allowedSandboxModes?.[0] ?? 'read-only'),
    };
  }

  /** Refuses settings requirements.toml forbids, before a thread or turn runs with them. */
  async enforceRequirements(settings: ThreadSettings): Promise<void> {
    const mode = sandboxModeOf(effectiveSandboxPolicy(settings));
    const reason = await this.configuration.forbidden(settings.approvalPolicy, mode);
    if (reason) throw invalidParams(reason);
  }

  /** How the environment of every command is built (exec_command, command/exec, thread/shellCommand). */
  async commandEnvironment(): Promise<ShellEnvironmentPolicy> {
    return (await this.loadedConfig()).shellEnvironment;
  }

  /** The shell every command line runs in (and is read as, by the approval gate). */
  async commandShell(): Promise<CommandShell> {
    const { windowsShell } = await this.loadedConfig();
    return selectShell({ platform: process.platform, env: process.env, exists: existsSync }, windowsShell);
  }

  async agentConfig(): Promise<{
    updatePlanTool: boolean;
    viewImageTool: boolean;
    compactionLimits(model: string): CompactionLimits;
  }> {
    const config = await this.loadedConfig();
    const features = await this.configuration.features(null).catch(() => new Map<string, boolean>());
    return {
      updatePlanTool: features.get('update_plan') ?? config.updatePlanTool,
      viewImageTool: features.get('view_image') ?? true,
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

  turnCheckpoint(threadId: string, turnId: string): TurnCheckpointWriter {
    return new TurnCheckpointWriter(this.checkpoints, threadId, turnId, this.log);
  }

  /** Runs once, first thing after the first warm-up (app.ts: what waits until the server has started). */
  afterStart(started: () => void): void {
    this.started = started;
  }

  /**
   * Starts loading what thread methods need without making anyone wait for it; not once the server is
   * closing (a client that ended its input right after the handshake), which would open the store after
   * close() and make the exit wait for it. `load` (the method families) waits for the store: evaluating
   * them is synchronous work that a client leaving right after `initialize` would otherwise wait for.
   */
  warmUp(load: () => void = () => {}): void {
    setImmediate(() => {
      if (this.closing) return;
      const started = this.started;
      this.started = undefined;
      started?.();
      this.loadedConfig().catch(() => {});
      this.store()
        .then((store) => {
          if (!this.closing) load();
          return this.checkpoints.recover((threadId) => store.get(threadId) !== undefined);
        })
        .catch(() => {});
    });
  }

  /** Ends running turns (recorded as interrupted), then closes the store. */
  async close(): Promise<void> {
    this.closing = true;
    const threads = this.loaded.states();
    const running = threads.flatMap((thread) => (thread.turn ? [thread.turn] : []));
    for (const turn of running) turn.interrupt();
    await Promise.all(running.map((turn) => turn.done));
    for (const thread of threads) thread.dispose();
    await this.mcp.close();
    await this.search.close().catch(() => {});
    const store = await this.storePromise?.catch(() => undefined);
    await store?.close();
  }
}
