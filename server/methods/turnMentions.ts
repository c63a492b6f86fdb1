// What a prompt's mentions add before the model sees it: `$name` skill mentions become skill items
// (their instructions are injected), and `app://<id>` mention items name the app and the MCP
// server its tools come from. The user's message item keeps what they sent.
import { UserInputError } from '../agent/userInput';
import type { UserInput } from '../protocol/userInput';
import type { Services } from '../services';
import { skillItemsFor } from '../skills/skillMentions';

const APP_SCHEME = 'app://';

export async function expandMentions(
  services: Services,
  input: UserInput[],
  cwd: string,
): Promise<UserInput[]> {
  const withSkills = [...input, ...skillItemsFor(input, await services.skills.enabled(cwd))];
  if (!withSkills.some((part) => part.type === 'mention' && part.path.startsWith(APP_SCHEME)))
    return withSkills;
  const apps = await services.apps.list();
  return withSkills.map((part) => {
    if (part.type !== 'mention' || !part.path.startsWith(APP_SCHEME)) return part;
    const id = part.path.slice(APP_SCHEME.length);
    const app = apps.find((candidate) => candidate.info.id === id);
    if (!app) throw new UserInputError(`mention ${part.path}: no app ${id} is configured`);
    if (!app.info.isEnabled) {
      throw new UserInputError(`mention ${part.path}: the app ${app.info.name} is turned off`);
    }
    const server = app.mcpServer ? `; its tools come from the MCP server "${app.mcpServer}"` : '';
    return { type: 'text', text: `[The user means the app "${app.info.name}" (${part.path})${server}.]` };
  });
}
