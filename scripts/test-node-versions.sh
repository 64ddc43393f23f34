#!/usr/bin/env bash
# The extra CI run on the supported Node LTS versions, after `npm test` on the machine's Node
# (never at the same time: the install test's `npm pack` rebuilds .medusa/server from the same
# sources, which the Medusa specs then load). Node binaries come from the npm registry
# (scripts/node-binary.sh).
#   Node 22: the install test (npm pack, a fresh app), a Medusa integration subset (a sync of
#            pages, V8's heap growth in a real app) and the version-specific
#            core spec (heap growth: V8's own limits in child processes)
#   Node 24: the version-specific core spec
# Prints one line per version, "node22: N passed, N failed", and exits non-zero if any failed.
# Extra arguments go to every jest call.
set -uo pipefail
cd "$(dirname "$0")/.."

MEDUSA_SUBSET=(
  integration-tests/medusa/sync-pages.spec.ts
  integration-tests/medusa/heap-growth.spec.ts
)
VERSION_SPECIFIC_CORE=(src/queue/__tests__/heap-growth.spec.ts)

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
export DB_HOST=${DB_HOST:-localhost}
status=0

# Runs jest on the given Node (its directory first on PATH, so npm, npx and every child use it).
on_node() {
  local major=$1 name=$2; shift 2
  local bin; bin=$(scripts/node-binary.sh "$major") || { echo "node$major: could not install Node $major" >&2; return 1; }
  echo "=== node$major ($("$bin" -v)): $name"
  PATH="$(dirname "$bin"):$PATH" npx jest --json --outputFile="$results/$major/$name.json" "$@"
}

for major in 22 24; do mkdir -p "$results/$major"; done

# Node 22: the install test in the background from the start (as scripts/test.sh runs it); the
# Medusa specs once its npm pack has rebuilt .medusa/server with Node 22.
packed="$results/install.packed"
(
  MCS_INSTALL_PACKED_FILE="$packed" on_node 22 install --selectProjects install --runInBand "$@" > "$results/install.log" 2>&1
  echo $? > "$results/install.rc"
) &
install_pid=$!
# Paths before --selectProjects: a path right after it would be taken as a project name.
on_node 22 core "${VERSION_SPECIFIC_CORE[@]}" --selectProjects core "$@" || status=1
while [ ! -e "$packed" ] && kill -0 "$install_pid" 2>/dev/null; do sleep 2; done
on_node 22 medusa "${MEDUSA_SUBSET[@]}" --selectProjects medusa --runInBand "$@" || status=1
wait "$install_pid"
cat "$results/install.log"
[ "$(cat "$results/install.rc" 2>/dev/null)" = 0 ] || status=1

on_node 24 core "${VERSION_SPECIFIC_CORE[@]}" --selectProjects core "$@" || status=1

# One line per version; a run that wrote no results (Node not installed, jest crashed) counts as a failure.
for major in 22 24; do
  node -e '
const fs = require("fs"), path = require("path");
const [dir, major, expected] = process.argv.slice(1);
let passed = 0, failed = 0;
const files = fs.readdirSync(dir);
for (const f of files) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests;
  failed += r.testResults.filter((s) => s.status === "failed" && !s.assertionResults.some((a) => a.status === "failed")).length;
}
failed += Math.max(0, Number(expected) - files.length);
console.log(`node${major}: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
' "$results/$major" "$major" "$([ "$major" = 22 ] && echo 3 || echo 1)" || status=1
done
exit $status
