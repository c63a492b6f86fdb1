// The long-lived state every method family shares. The store opens in the background so the
// handshake never waits for the index to load.
import type { Logger } from './log';
import { loadConfigDefaults, type ConfigDefaults, type ThreadSettings } from './config/settings';
import { LoadedThreads } from './threads/loadedThreads';
import { ThreadStore } from './threads/threadStore';

export class Services {
  readonly loaded = new LoadedThreads();
  /** The settings of each loaded thread, as resolved when it was started or resumed. */
  readonly settings = new Map<string, ThreadSettings>();
  private readonly storePromise: Promise<ThreadStore>;
  private configPromise: Promise<ConfigDefaults> | undefined;
  ready = false;

  constructor(
    readonly home: string,
    readonly log: Logger,
  ) {
    this.storePromise = ThreadStore.open(home, log).then((store) => {
      this.ready = true;
      return store;
    });
    // A failure surfaces on first use; this only keeps it from being reported as unhandled.
    this.storePromise.catch((error: Error) =>
      log.error(`cannot open the thread store in ${home}: ${error.message}`),
    );
  }

  store(): Promise<ThreadStore> {
    return this.storePromise;
  }

  config(): Promise<ConfigDefaults> {
    this.configPromise ??= loadConfigDefaults(this.home, this.log);
    return this.configPromise;
  }

  async close(): Promise<void> {
    const store = await this.storePromise.catch(() => undefined);
    await store?.close();
  }
}
