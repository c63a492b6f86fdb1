// The webview's requests behind the composer that need no thread: the models, `@` mentions, `$` skills,
// images (picked or pasted) and the provider's setup.
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { HostRequests } from '../../webview/messages';
import { runSetup, setupStatus } from '../account/setupStatus';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { ContextMentions } from './contextMentions';

type Handler<N extends keyof HostRequests> = (
  params: HostRequests[N]['params'],
) => Promise<HostRequests[N]['result']>;

export function composerRequests(
  server: ThreadlineServer,
  mentions: ContextMentions,
  cwd: () => string,
): {
  listModels: Handler<'listModels'>;
  suggestMentions: Handler<'suggestMentions'>;
  resolveMentions: Handler<'resolveMentions'>;
  listSkills: Handler<'listSkills'>;
  pickImages: Handler<'pickImages'>;
  saveImage: Handler<'saveImage'>;
  checkSetup: Handler<'checkSetup'>;
  runSetup: Handler<'runSetup'>;
} {
  return {
    listModels: async () => ({ models: (await server.request('model/list', { limit: 100 })).data }),
    suggestMentions: async ({ query }) => ({ suggestions: await mentions.suggest(query) }),
    resolveMentions: async ({ mentions: named }) => ({ input: await mentions.resolve(named) }),
    listSkills: async () => {
      const { data } = await server.request('skills/list', { cwds: [cwd()] });
      return { skills: data.flatMap((entry) => entry.skills.filter((skill) => skill.enabled)) };
    },
    pickImages: async () => {
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: true,
        openLabel: 'Attach',
        filters: { Images: ['png', 'jpg', 'jpeg', 'gif', 'webp'] },
      });
      return { paths: (picked ?? []).map((uri) => uri.fsPath) };
    },
    saveImage: async ({ dataUrl }) => ({ path: await savePastedImage(dataUrl) }),
    checkSetup: () => setupStatus(server),
    runSetup: (setup) => runSetup(server, setup),
  };
}

/** A pasted image becomes a temp file, so it can travel to the server as a `localImage`. */
async function savePastedImage(dataUrl: string): Promise<string> {
  const match = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  if (!match) throw new Error('The pasted data is not an image');
  const file = path.join(
    os.tmpdir(),
    'threadline-images',
    `${randomUUID()}.${match[1] === 'jpeg' ? 'jpg' : match[1]}`,
  );
  await vscode.workspace.fs.writeFile(vscode.Uri.file(file), Buffer.from(match[2], 'base64'));
  return file;
}
