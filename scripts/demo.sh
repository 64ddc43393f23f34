#!/usr/bin/env bash
# npm run demo: sandbox catalog + demo Medusa app (admin on http://localhost:9000/app) with the
# plugin configured against the sandbox and a first full sync. See scripts/demo.ts for options.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules/@medusajs/medusa ]; then
  echo "[demo] dependencies are missing: run 'npm ci' first" >&2
  exit 1
fi
secret_env=$(npx tsx scripts/demo-secret.ts); eval "$secret_env" # random encryption secret, kept in demo/.env (no default)
exec npx tsx scripts/demo.ts "$@"
