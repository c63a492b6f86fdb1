// OAuth for streamable HTTP MCP servers that ask for it (the SDK's flow: discovery, dynamic client
// registration, PKCE). mcpServer/oauth/login starts a one-shot callback listener on 127.0.0.1 and
// hands the client the authorization URL; the callback exchanges the code and stores the tokens in
// auth.json (owner-only, like the API keys). Tokens never reach the log or a thread.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type * as Http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { AuthStore } from '../account/authStore';
import type { Logger } from '../log';

type ClientInformation = Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
type Tokens = NonNullable<Awaited<ReturnType<OAuthClientProvider['tokens']>>>;

export interface LoginOutcome {
  loginId: string;
  success: boolean;
  error: string | null;
}

export interface LoginRequest {
  name: string;
  url: string;
  scopes: string[] | null;
  timeoutMs: number;
  /** Called once, when the browser came back, the user refused, or the time ran out. */
  onDone(outcome: LoginOutcome): void;
}

const CLIENT_NAME = 'Threadline';

/** The server wants a sign-in that only mcpServer/oauth/login may start. */
export class SignInRequiredError extends Error {
  constructor() {
    super('the server needs you to sign in (mcpServer/oauth/login)');
  }
}

export class McpAuth {
  /** Logins waiting for their callback, by server: a new one for the same server replaces the old. */
  private readonly pending = new Map<string, { close(reason: string): void }>();

  constructor(
    private readonly store: AuthStore,
    private readonly log: Logger,
  ) {}

  async signedIn(name: string): Promise<boolean> {
    return (await this.store.mcpCredentials(name)) !== null;
  }

  /**
   * The provider a connection uses: stored tokens, refreshed when they expire. It never starts a
   * sign-in itself; a server that needs one fails to start with "authentication required".
   */
  providerFor(name: string): OAuthClientProvider {
    const store = this.store;
    return {
      redirectUrl: undefined,
      clientMetadata: clientMetadata([]),
      async clientInformation() {
        return (await store.mcpCredentials(name))?.client as ClientInformation;
      },
      async tokens() {
        return (await store.mcpCredentials(name))?.tokens as Tokens | undefined;
      },
      async saveTokens(tokens) {
        const client = (await store.mcpCredentials(name))?.client;
        await store.setMcpCredentials(name, { tokens, ...(client ? { client } : {}) });
      },
      // Registering a client or sending the user to the browser is a sign-in: not here.
      saveClientInformation() {
        throw new SignInRequiredError();
      },
      redirectToAuthorization() {
        throw new SignInRequiredError();
      },
      saveCodeVerifier() {},
      codeVerifier() {
        throw new SignInRequiredError();
      },
    };
  }

  /** Starts a sign-in; resolves with the URL to open once the listener is up. */
  async login(request: LoginRequest): Promise<{ authorizationUrl: string; loginId: string }> {
    const { name, url } = request;
    this.pending.get(name)?.close('replaced by a newer sign-in');
    const loginId = randomUUID();
    // Node's HTTP server is a dozen internal modules: loaded at the first sign-in, not at every start.
    // require, not import(): the bundled core runs in a vm.Script without an ESM loader.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createServer } = require('node:http') as typeof Http;
    const listener = createServer();
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(0, '127.0.0.1', resolve);
    });
    const redirectUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
    const state = randomBytes(24).toString('base64url');
    let authorizationUrl: URL | undefined;
    let verifier = '';
    let client: ClientInformation;
    const store = this.store;
    const provider: OAuthClientProvider = {
      redirectUrl,
      clientMetadata: clientMetadata([redirectUrl]),
      state: () => state,
      clientInformation: () => client,
      saveClientInformation: (info) => void (client = info),
      // A sign-in starts afresh: old tokens may be what the server no longer accepts.
      tokens: () => undefined,
      saveTokens: (tokens) =>
        store.setMcpCredentials(name, { tokens, ...(client ? { client: { ...client } } : {}) }),
      redirectToAuthorization: (target) => void (authorizationUrl = target),
      saveCodeVerifier: (v) => void (verifier = v),
      codeVerifier: () => verifier,
    };
    const scope = request.scopes?.length ? request.scopes.join(' ') : undefined;
    const { auth } = await import('./mcpSdk');
    let done = false;
    const finish = (success: boolean, error: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      listener.close();
      listener.closeAllConnections();
      if (this.pending.get(name) === entry) this.pending.delete(name);
      this.log.info(`mcp ${name}: sign-in ${success ? 'completed' : `failed: ${error}`}`);
      request.onDone({ loginId, success, error });
    };
    const entry = { close: (reason: string) => finish(false, reason) };
    const timer = setTimeout(() => finish(false, 'the sign-in timed out'), request.timeoutMs);
    try {
      await auth(provider, { serverUrl: url, scope });
    } catch (error) {
      done = true;
      clearTimeout(timer);
      listener.close();
      throw new Error(`cannot start the sign-in: ${(error as Error).message}`, { cause: error });
    }
    if (!authorizationUrl) {
      finish(false, 'the server did not ask for a sign-in');
      throw new Error(`${name} did not ask for a sign-in`);
    }
    this.pending.set(name, entry);
    listener.on('request', (req, res) => {
      const query = new URL(req.url ?? '/', redirectUrl);
      if (query.pathname !== '/callback') {
        res.writeHead(404).end();
        return;
      }
      const answer = (status: number, text: string) => {
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
      };
      // A request without our state did not come from the sign-in we started: ignore it.
      if (!sameText(query.searchParams.get('state') ?? '', state)) {
        answer(400, 'This sign-in link is not the one Threadline is waiting for.');
        return;
      }
      const code = query.searchParams.get('code');
      if (!code) {
        const why = query.searchParams.get('error') ?? 'no authorization code';
        answer(400, `Sign-in to ${name} failed: ${why}. You can close this tab.`);
        finish(false, `the authorization server answered: ${why.slice(0, 200)}`);
        return;
      }
      auth(provider, { serverUrl: url, authorizationCode: code, scope })
        .then(() => {
          answer(200, `Signed in to ${name}. You can close this tab and return to the editor.`);
          finish(true, null);
        })
        .catch((error: Error) => {
          answer(500, `Sign-in to ${name} failed. You can close this tab.`);
          finish(false, `the token exchange failed: ${error.message.slice(0, 300)}`);
        });
    });
    return { authorizationUrl: authorizationUrl.toString(), loginId };
  }

  /** Ends waiting sign-ins (the server is shutting down). */
  close(): void {
    for (const login of [...this.pending.values()]) login.close('the server stopped');
  }
}

function clientMetadata(redirectUris: string[]) {
  return {
    client_name: CLIENT_NAME,
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
