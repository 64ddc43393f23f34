#!/usr/bin/env bash
# The extra CI run on the supported Node LTS versions, beside `npm test` on the machine's Node
# (MCS_NODE_VERSIONS=1) or after it; never before the install test's `npm pack` has rebuilt
# .medusa/server, which both load. Node binaries come from the npm registry (scripts/node-binary.sh).
#   Node 22: a Medusa integration subset (a sync of pages, V8's heap growth in a real app) and
#            the version-specific core spec (heap growth: V8's own limits in child processes).
#            The install test (npm pack, a fresh app) runs on Node 22 inside `npm test` when
#            MCS_INSTALL_NODE=22, as .ci/run sets it, so it is not repeated here.
#   Node 24: the version-specific core spec
# The core runs and the Medusa specs not marked `@runs-alone` run side by side; the `@runs-alone`
# ones (heap-growth) after them, or in `npm test` with its other timed specs (scripts/test.sh).
# Prints one line per version, "node22: N passed, N failed", and exits non-zero if any failed.
# Extra arguments go to every jest call.
# MCS_NODE_VERSIONS_STAGE runs one part: `beside` (what may share the machine), `alone` (the
# `@runs-alone` specs), `report` (the lines), into MCS_NODE_VERSIONS_RESULTS (a directory that
# outlives the call): scripts/test.sh runs `beside` next to its parallel medusa pass, `alone` with
# its own `@runs-alone` specs and `report` at its end. Unset: all three in a row.
set -uo pipefail
cd "$(dirname "$0")/.."

MEDUSA_SUBSET=(
  integration-tests/medusa/sync-pages.spec.ts
  integration-tests/medusa/heap-growth.spec.ts
)
VERSION_SPECIFIC_CORE=(src/queue/__tests__/heap-growth.spec.ts)

stage=${MCS_NODE_VERSIONS_STAGE:-all}
if [ -n "${MCS_NODE_VERSIONS_RESULTS:-}" ]; then
  results=$MCS_NODE_VERSIONS_RESULTS
else
  results=$(mktemp -d)
  trap 'rm -rf "$results"' EXIT
fi
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

# Paths before --selectProjects: a path right after it would be taken as a project name.
# The two core runs and the Medusa specs that assert no timing run side by side (each mostly
# waits: on child processes, on its app's sync), each printed when all three have ended; then
# the `@runs-alone` ones (heap-growth: V8's limits by the second) with nothing beside them.
mapfile -t alone < <(grep -l '@runs-alone' "${MEDUSA_SUBSET[@]}")
beside=()
for f in "${MEDUSA_SUBSET[@]}"; do grep -q '@runs-alone' "$f" || beside+=("$f"); done
if [ "$stage" = all ] || [ "$stage" = beside ]; then
  logs=$(mktemp -d)
  on_node 22 core "${VERSION_SPECIFIC_CORE[@]}" --selectProjects core "$@" > "$logs/22-core" 2>&1 &
  core22=$!
  on_node 24 core "${VERSION_SPECIFIC_CORE[@]}" --selectProjects core "$@" > "$logs/24-core" 2>&1 &
  core24=$!
  medusa22=
  if [ "${#beside[@]}" -gt 0 ]; then
    on_node 22 medusa "${beside[@]}" --selectProjects medusa --runInBand "$@" > "$logs/22-medusa" 2>&1 &
    medusa22=$!
  fi
  wait "$core22" || status=1
  wait "$core24" || status=1
  [ -n "$medusa22" ] && { wait "$medusa22" || status=1; }
  for f in 22-core 24-core 22-medusa; do [ -e "$logs/$f" ] && cat "$logs/$f"; done
  rm -rf "$logs"
fi
if [ "$stage" = all ] || [ "$stage" = alone ]; then
  if [ "${#alone[@]}" -gt 0 ]; then
    on_node 22 medusa-alone "${alone[@]}" --selectProjects medusa --runInBand "$@" || status=1
  fi
fi
if [ "$stage" = all ] || [ "$stage" = report ]; then
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
  ' "$results/$major" "$major" "$([ "$major" = 22 ] && echo $((1 + (${#beside[@]} > 0) + (${#alone[@]} > 0))) || echo 1)" || status=1
  done
fi
exit $status
