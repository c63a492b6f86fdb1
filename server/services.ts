// The long-lived state every method family shares. The store opens on first use (or just after
// the handshake), so starting the server and answering initialize never wait for the index.
import type { Logger } from './log';
import { loadConfigDefaults, type ConfigDefaults, type ThreadSettings } from './config/settings';
import { LoadedThreads } from './threads/loadedThreads';
import { ThreadStore } from './threads/threadStore';

export class Services {
  readonly loaded = new LoadedThreads();
  /** The settings of each loaded thread, as resolved when it was started or resumed. */
  readonly settings = new Map<string, ThreadSettings>();
  private storePromise: Promise<ThreadStore> | undefined;
  private configPromise: Promise<ConfigDefaults> | undefined;
  ready = false;

  constructor(
    readonly home: string,
    readonly log: Logger,
  ) {}

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

  config(): Promise<ConfigDefaults> {
    this.configPromise ??= loadConfigDefaults(this.home, this.log);
    return this.configPromise;
  }

  /** Starts loading what thread methods need, without making anyone wait for it. */
  warmUp(): void {
    setImmediate(() => {
      this.store().catch(() => {});
      this.config().catch(() => {});
    });
  }

  async close(): Promise<void> {
    const store = await this.storePromise?.catch(() => undefined);
    await store?.close();
  }
}
