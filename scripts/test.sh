#!/usr/bin/env bash
# The project's test command (README: `npm test`). Runs the three jest projects in turn:
#   core     sandbox, catalog client and pure sync logic over real loopback HTTP (parallel)
#   medusa   real Medusa apps on PostgreSQL and Redis against the sandbox (one file at a time)
#   browser  the demo admin in headless Chromium (skipped with a notice when Chromium is absent)
#   install  npm pack, then a fresh Medusa app installs the tarball and sells the products
#            (skipped with a notice when the npm registry is unreachable)
# and ends with one line "N passed, N failed". Extra arguments go to every jest call.
# The install project runs in the background from the start (it mostly waits on npm and on
# its own Medusa apps); the medusa and browser projects start only once its `npm pack` has
# rebuilt .medusa/server, which they load. Its output is printed at the end.
set -uo pipefail
cd "$(dirname "$0")/.."

results_dir=$(mktemp -d)
trap 'rm -rf "$results_dir"' EXIT
status=0

run_project() {
  local project=$1; shift
  echo "=== jest project: $project"
  npx jest --selectProjects "$project" --json --outputFile="$results_dir/$project.json" "$@" || status=1
}

export DB_HOST=${DB_HOST:-localhost}
packed="$results_dir/install.packed"
# MCS_INSTALL_NODE=22 (CI sets it) runs the install project on that Node major, a binary from the
# npm registry (scripts/node-binary.sh): a shop's install runs on the Node it will run on in production.
install_path=$PATH
if [ -n "${MCS_INSTALL_NODE:-}" ]; then
  install_bin=$(scripts/node-binary.sh "$MCS_INSTALL_NODE") || { echo "install: could not install Node $MCS_INSTALL_NODE" >&2; status=1; }
  [ -n "${install_bin:-}" ] && install_path="$(dirname "$install_bin"):$PATH"
fi
(
  PATH="$install_path" MCS_INSTALL_PACKED_FILE="$packed" npx jest --selectProjects install --runInBand --json \
    --outputFile="$results_dir/install.json" "$@" > "$results_dir/install.log" 2>&1
  echo $? > "$results_dir/install.rc"
) &
install_pid=$!
echo "=== jest project: install on Node $(PATH="$install_path" node -v) (started in the background; its output follows the others)"

run_project core --maxWorkers=2 "$@"
# npm pack (in the install project) rebuilds .medusa/server: wait until it is done.
while [ ! -e "$packed" ] && kill -0 "$install_pid" 2>/dev/null; do sleep 2; done
run_project medusa --runInBand "$@"
if [ -n "${CHROMIUM_PATH:-}" ] || command -v chromium >/dev/null 2>&1; then
  run_project browser --runInBand "$@"
else
  echo "=== jest project: browser skipped (no chromium; apt-get install -y chromium)"
fi
wait "$install_pid"
echo "=== jest project: install"
cat "$results_dir/install.log"
[ "$(cat "$results_dir/install.rc" 2>/dev/null)" = 0 ] || status=1
rm -f "$results_dir/install.log" "$results_dir/install.rc" "$packed"

# The slowest test files, so a run that grows too long shows where its time went.
node -e '
const fs = require("fs"), path = require("path");
const suites = [];
for (const f of fs.readdirSync(process.argv[1])) {
  const r = JSON.parse(fs.readFileSync(path.join(process.argv[1], f), "utf8"));
  for (const s of r.testResults) suites.push([(s.endTime - s.startTime) / 1000, path.relative(process.cwd(), s.name)]);
}
suites.sort((a, b) => b[0] - a[0]);
console.log("=== slowest test files");
for (const [secs, name] of suites.slice(0, 15)) console.log(`${secs.toFixed(0).padStart(6)} s  ${name}`);
' "$results_dir" || true

node -e '
const fs = require("fs"), path = require("path");
let passed = 0, failed = 0;
for (const f of fs.readdirSync(process.argv[1])) {
  const r = JSON.parse(fs.readFileSync(path.join(process.argv[1], f), "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests;
  // A suite that failed to run (syntax error, failed hook) has no failed test: count it.
  failed += r.testResults.filter((s) => s.status === "failed" && !s.assertionResults.some((a) => a.status === "failed")).length;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
' "$results_dir" || status=1
exit $status
