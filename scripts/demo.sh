#!/usr/bin/env bash
# npm run demo: sandbox catalog + demo Medusa app (admin on http://localhost:9000/app) with the
# plugin configured against the sandbox and a first full sync. See scripts/demo.ts for options.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules/@medusajs/medusa ]; then
  echo "[demo] dependencies are missing: run 'npm ci' first" >&2
  exit 1
fi
secret_env=$(node_modules/.bin/tsx scripts/demo-secret.ts); eval "$secret_env" # random encryption secret, kept in demo/.env (no default)
# exec all the way (package.json's script too), no npx: a signal to the npm process (npm forwards it
# to its one child) must reach the demo; a shell or npx in between would swallow it and leave the demo running.
exec node_modules/.bin/tsx scripts/demo.ts "$@"
