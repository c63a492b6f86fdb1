// API keys per provider in $THREADLINE_HOME/auth.json: {"providers": {"<id>": {"apiKey": "…"}}}.
// Written whole to a temporary file and renamed over the old one, readable by the owner only. A
// file that does not parse is kept aside (auth.json.corrupt) rather than silently overwritten.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';

interface AuthFile {
  providers: Record<string, { apiKey?: string }>;
}

export class AuthStore {
  private readonly path: string;

  constructor(
    home: string,
    private readonly log: Logger,
  ) {
    this.path = join(home, 'auth.json');
  }

  async apiKey(providerId: string): Promise<string | null> {
    const key = (await this.read()).providers[providerId]?.apiKey;
    return typeof key === 'string' && key ? key : null;
  }

  async setApiKey(providerId: string, apiKey: string | null): Promise<void> {
    const file = await this.read();
    if (apiKey) file.providers[providerId] = { ...file.providers[providerId], apiKey };
    else delete file.providers[providerId];
    await this.write(file);
  }

  private async read(): Promise<AuthFile> {
    let text: string;
    try {
      text = await fs.readFile(this.path, 'utf8');
    } catch {
      return { providers: {} };
    }
    try {
      const value = JSON.parse(text) as Partial<AuthFile>;
      if (typeof value.providers === 'object' && value.providers !== null)
        return { providers: value.providers };
      throw new Error('no "providers" table');
    } catch (error) {
      // Never echo the contents: they may hold keys.
      this.log.warn(`auth.json cannot be read (${(error as Error).name}); keeping it as auth.json.corrupt`);
      await fs.copyFile(this.path, `${this.path}.corrupt`).catch(() => {});
      await fs.chmod(`${this.path}.corrupt`, 0o600).catch(() => {});
      return { providers: {} };
    }
  }

  private async write(file: AuthFile): Promise<void> {
    const temp = `${this.path}.${process.pid}.tmp`;
    await fs.mkdir(join(this.path, '..'), { recursive: true, mode: 0o700 });
    await fs.writeFile(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    await fs.rename(temp, this.path);
    await fs.chmod(this.path, 0o600);
  }
}
