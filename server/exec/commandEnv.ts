// The environment commands run with: the server's own, without variables that look like secrets
// (API keys reach the server through its environment; a command the model runs must not see them).
const SECRET = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL/i;

export function commandEnv(
  base: NodeJS.ProcessEnv = process.env,
  overrides: Record<string, string | null> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) if (!SECRET.test(name)) env[name] = value;
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) delete env[name];
    else env[name] = value;
  }
  return env;
}
