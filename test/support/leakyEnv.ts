// Environment variables a command must not see by default, for the environment tests.

/** Twenty variables a command must not see by default (credentials, and handles to other processes). */
export const LEAKY = {
  OPENAI_API_KEY: 'sk-openai',
  ANTHROPIC_API_KEY: 'sk-ant',
  OPENROUTER_AUTH: 'or-secret',
  DATABASE_URL: 'postgres://u:pw@db/x',
  GH_PAT: 'ghp_x',
  GITHUB_TOKEN: 'gho_x',
  NPM_TOKEN: 'npm_x',
  AWS_SECRET_ACCESS_KEY: 'aws',
  PGPASSWORD: 'pg',
  GOOGLE_APPLICATION_CREDENTIALS: '/keys/gcp.json',
  SENTRY_DSN: 'https://k@sentry/1',
  SSH_AUTH_SOCK: '/run/user/1000/ssh-agent.sock',
  GPG_AGENT_INFO: '/run/user/1000/gnupg/S.gpg-agent',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
  DOCKER_HOST: 'unix:///var/run/docker.sock',
  XDG_RUNTIME_DIR: '/run/user/1000',
  VSCODE_IPC_HOOK_CLI: '/run/user/1000/vscode-ipc.sock',
  VSCODE_GIT_IPC_HANDLE: '/run/user/1000/vscode-git.sock',
  GIT_ASKPASS: '/opt/vscode/askpass.sh',
  ELECTRON_RUN_AS_NODE: '1',
};
