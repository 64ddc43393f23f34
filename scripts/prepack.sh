#!/usr/bin/env bash
# npm pack's prepack: builds the plugin, so a tarball ships what src/ holds now. `npm test` sets
# MCS_PACK_CURRENT_BUILD=1 for its install project, having just built the plugin: then the build
# is packed as it is when it is current (made from src/ as it is now: the check the test apps'
# build uses), and made again only when it is not.
set -euo pipefail
cd "$(dirname "$0")/.."
# A build `npm run dev` (plugin:develop) left names the repository's src/ in medusa-plugin-options.json,
# which would make an app load the admin from here instead of the tarball: never packed as it is.
if [ "${MCS_PACK_CURRENT_BUILD:-0}" = 1 ] && [ ! -e .medusa/server/medusa-plugin-options.json ]; then
  exec npx tsx -e 'require("./integration-tests/harness/plugin-build").ensurePluginBuilt()'
fi
exec npm run build
