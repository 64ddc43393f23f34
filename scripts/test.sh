#!/usr/bin/env bash
# The project's test command (README: `npm test`). Runs the jest projects:
#   core     sandbox, catalog client and pure sync logic over real loopback HTTP (2 workers)
#   medusa   real Medusa apps on PostgreSQL and Redis against the sandbox: every spec file on
#            MCS_MEDUSA_WORKERS workers (default 2), each worker with its own Redis database
#            (integration-tests/harness/worker-isolation.ts); and, one at a time and first in the
#            kernel's queue, the files marked `@runs-alone` (they assert timings another app on the
#            same cores would skew)
#   browser  the demo admin in headless Chromium (skipped with a notice when Chromium is absent)
#   install  npm pack, then a fresh Medusa app installs the tarball and sells the products
#            (skipped with a notice when the npm registry is unreachable)
#   and with MCS_NODE_VERSIONS=1 (CI) the extra run on Node 22 and 24 LTS (scripts/test-node-versions.sh)
# and ends with each pass's wall time, the slowest files and one line "N passed, N failed".
# Extra arguments go to every jest call.
# The plugin is built first (when src/ changed since its build); then the install project runs in
# the background (it mostly waits on npm and on its own Medusa apps; its `npm pack` packs that
# build) beside the medusa and browser projects, which load it. The browser project runs beside the parallel medusa
# pass (both mostly wait on their apps' syncs, polls and pages; MCS_BROWSER_BESIDE_MEDUSA=0 runs
# it after the medusa pass instead). Every pass runs at nice 10 but the @runs-alone specs, which
# start at nice 0 once the install, browser and version passes have ended (MCS_ALONE_BESIDE=0:
# after everything, with nothing beside them). The output of the background passes is printed at
# the end.
set -uo pipefail
cd "$(dirname "$0")/.."

# Two: a third worker kept a nine-file subset 17 % shorter, but with the browser pass beside it
# the whole pass ran slower on two cores (load 8 to 10) and a timing window of queued-runs missed.
medusa_workers=${MCS_MEDUSA_WORKERS:-2}

results_dir=$(mktemp -d)
versions_results=
trap 'rm -rf "$results_dir" ${versions_results:+"$versions_results"}' EXIT
status=0
# Each Medusa process of the run adds its CPU here (integration-tests/harness/app-cpu.ts); the report sums it.
rm -f artifacts/app-cpu.tsv

: > "$results_dir/walltimes"
# run_project NAME PROJECT [jest args…]: one jest pass, its results in NAME.json, its wall time noted.
run_project() {
  local name=$1 project=$2; shift 2
  echo "=== jest project: $name"
  local started=$SECONDS
  nice -n "$pass_nice" npx jest --selectProjects "$project" --json --outputFile="$results_dir/$name.json" "$@" || status=1
  echo "$name $((SECONDS - started))" >> "$results_dir/walltimes"
}

export DB_HOST=${DB_HOST:-localhost}
# The @runs-alone specs assert timings another app on the same cores would skew. By default
# (MCS_ALONE_BESIDE=1) they do not wait for the end: they run beside the others' later files, and
# every other pass runs at a lower priority (nice 10, MCS_OTHERS_NICE), so the kernel gives the timed
# specs the cores whenever they ask and the others only what is left. MCS_ALONE_BESIDE=0 runs them
# after everything else, on a machine with nothing else running, as before.
alone_beside=${MCS_ALONE_BESIDE:-1}
pass_nice=0
[ "$alone_beside" = 1 ] && pass_nice=${MCS_OTHERS_NICE:-10}
# MCS_INSTALL_NODE=22 (CI sets it) runs the install project on that Node major, a binary from the
# npm registry (scripts/node-binary.sh): a shop's install runs on the Node it will run on in production.
install_path=$PATH
if [ -n "${MCS_INSTALL_NODE:-}" ]; then
  install_bin=$(scripts/node-binary.sh "$MCS_INSTALL_NODE") || { echo "install: could not install Node $MCS_INSTALL_NODE" >&2; status=1; }
  [ -n "${install_bin:-}" ] && install_path="$(dirname "$install_bin"):$PATH"
fi

suite_started=$SECONDS
# The core project needs no Medusa app: it runs in the background from the start, beside the
# plugin's build. Its output is printed after the others.
echo "=== jest project: core (started in the background; its output follows the others)"
(
  run_project core core --maxWorkers=2 "$@" > "$results_dir/core.log" 2>&1
  echo "$status" > "$results_dir/core.rc"
) &
core_pid=$!
# Every pass but core loads the plugin from .medusa/server: it is built here, once, when it is not
# current (integration-tests/harness/plugin-build.ts), before any of them starts. The install
# project's `npm pack` packs this build (MCS_PACK_CURRENT_BUILD=1, scripts/prepack.sh) instead of
# making the same files again beside the other passes while they wait for it.
npx tsx -e 'require("./integration-tests/harness/plugin-build").ensurePluginBuilt()' || status=1
# Then the default schema's template database, which the medusa and browser passes clone for every
# spec (their global setup would make it too): its migration is the last thing before the medusa
# pass can start, so it runs before the install, browser and version passes take the cores.
npx tsx -e 'require("./integration-tests/harness/database").ensureTemplateDatabase().then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })' || status=1
# Built now: a forced rebuild (MCS_REBUILD=1) must not run again in a later check, under running apps.
export MCS_REBUILD=0
(
  install_started=$SECONDS
  # Its apps get the Redis database after the medusa workers' (Medusa's queues have fixed names).
  PATH="$install_path" MCS_REDIS_WORKER_OFFSET="$medusa_workers" MCS_PACK_CURRENT_BUILD=1 nice -n "$pass_nice" npx jest --selectProjects install --runInBand --json \
    --outputFile="$results_dir/install.json" "$@" > "$results_dir/install.log" 2>&1
  echo $? > "$results_dir/install.rc"
  echo $((SECONDS - install_started)) > "$results_dir/install.time"
) &
install_pid=$!
echo "=== jest project: install on Node $(PATH="$install_path" node -v) (started in the background; its output follows the others)"
# Spec files that must not share the machine with another app say so in a `@runs-alone` comment;
# every other medusa spec (a new one too) runs on the parallel workers.
mapfile -t alone < <(grep -rl --include='*.spec.ts' '@runs-alone' integration-tests/medusa | sort)
ignore=()
for f in "${alone[@]}"; do ignore+=(--testPathIgnorePatterns "$f"); done
browser_pid=
if ! [ -n "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "=== jest project: browser skipped (no chromium; apt-get install -y chromium)"
elif [ "${MCS_BROWSER_BESIDE_MEDUSA:-1}" = 1 ]; then
  # Its app gets the Redis database after the install project's (Medusa's queues have fixed names).
  echo "=== jest project: browser (started in the background beside the medusa pass; its output follows the others)"
  (
    MCS_REDIS_WORKER_OFFSET=$(($medusa_workers + 1)) run_project browser browser --runInBand "$@" > "$results_dir/browser.log" 2>&1
    echo "$status" > "$results_dir/browser.rc"
  ) &
  browser_pid=$!
fi
# MCS_NODE_VERSIONS=1 (CI sets it): the extra run on Node 22 and 24 LTS (scripts/test-node-versions.sh)
# joins this run: what may share the machine beside the parallel medusa pass, its `@runs-alone` spec
# after ours, its "nodeNN: N passed, N failed" lines before our count line. Its apps get the Redis
# database after the browser pass's.
versions_pid=
if [ "${MCS_NODE_VERSIONS:-0}" = 1 ]; then
  versions_results=$(mktemp -d)
  echo "=== node versions 22 and 24 (started in the background beside the medusa pass; its output follows the others)"
  (
    started=$SECONDS
    MCS_REDIS_WORKER_OFFSET=$(($medusa_workers + 2)) MCS_NODE_VERSIONS_STAGE=beside MCS_NODE_VERSIONS_RESULTS="$versions_results" \
      nice -n "$pass_nice" bash scripts/test-node-versions.sh "$@" > "$results_dir/versions.log" 2>&1
    echo $? > "$results_dir/versions.rc"
    echo "node-versions-beside $((SECONDS - started))" >> "$results_dir/walltimes"
  ) &
  versions_pid=$!
fi
# The timed specs beside the rest (MCS_ALONE_BESIDE=1): they start once the install, browser and
# version passes have ended (in CI that leaves them the medusa pass's later files, short and mostly
# waiting, which left a core idle), or once the medusa pass has, then Node 22's timed spec; their
# apps get the Redis database after the version passes'.
run_alone() {
  [ "${#alone[@]}" -gt 0 ] && run_project medusa-alone medusa --runInBand "${alone[@]}" "$@"
  if [ -n "$versions_pid" ]; then
    local started=$SECONDS versions_out=/dev/stdout
    [ "$alone_beside" = 1 ] || versions_out="$results_dir/versions.log"
    MCS_NODE_VERSIONS_STAGE=alone MCS_NODE_VERSIONS_RESULTS="$versions_results" bash scripts/test-node-versions.sh "$@" >> "$versions_out" 2>&1 || status=1
    echo "node-versions-alone $((SECONDS - started))" >> "$results_dir/walltimes"
  fi
}
alone_pid=
if [ "$alone_beside" = 1 ]; then
  echo "=== jest project: medusa-alone (in the background once the install, browser and version passes have ended, before the others in the kernel's queue; its output follows the others)"
  (
    pass_nice=0
    waited_from=$SECONDS
    while [ ! -e "$results_dir/medusa.ended" ]; do
      # Each background pass writes its exit status when it ends.
      [ -e "$results_dir/install.rc" ] && { [ -z "$browser_pid" ] || [ -e "$results_dir/browser.rc" ]; } &&
        { [ -z "$versions_pid" ] || [ -e "$results_dir/versions.rc" ]; } && break
      sleep 5
    done
    echo "medusa-alone-started-after $((SECONDS - waited_from))" >> "$results_dir/walltimes"
    MCS_REDIS_WORKER_OFFSET=$(($medusa_workers + 3)) run_alone "$@" > "$results_dir/alone.log" 2>&1
    echo "$status" > "$results_dir/alone.rc"
  ) &
  alone_pid=$!
fi
# MCS_PARK_APPS=1: a spec file done with an idle app hands it to the next file of its worker that
# asks for the same configuration, made new (integration-tests/harness/parked-apps.ts), instead of
# stopping it and booting another.
MCS_PARK_APPS=${MCS_PARK_APPS:-1} run_project medusa medusa --maxWorkers="$medusa_workers" "${ignore[@]}" "$@"
touch "$results_dir/medusa.ended"
# Then the passes beside it; MCS_ALONE_BESIDE=0: the @runs-alone specs, once nothing else runs.
if [ -n "$browser_pid" ]; then
  browser_wait_started=$SECONDS
  wait "$browser_pid"
  echo "browser-wait-after-medusa $((SECONDS - browser_wait_started))" >> "$results_dir/walltimes"
  [ "$(cat "$results_dir/browser.rc" 2>/dev/null)" = 0 ] || status=1
fi
core_wait_started=$SECONDS
wait "$core_pid"
echo "core-wait-after-medusa $((SECONDS - core_wait_started))" >> "$results_dir/walltimes"
[ "$(cat "$results_dir/core.rc" 2>/dev/null)" = 0 ] || status=1
install_wait_started=$SECONDS
wait "$install_pid"
echo "install-wait-after-the-others $((SECONDS - install_wait_started))" >> "$results_dir/walltimes"
if [ -n "$versions_pid" ]; then
  versions_wait_started=$SECONDS
  wait "$versions_pid"
  echo "node-versions-wait-after-the-others $((SECONDS - versions_wait_started))" >> "$results_dir/walltimes"
  [ "$(cat "$results_dir/versions.rc" 2>/dev/null)" = 0 ] || status=1
  rm -f "$results_dir/versions.rc"
fi
if [ -n "$alone_pid" ]; then
  alone_wait_started=$SECONDS
  wait "$alone_pid"
  echo "medusa-alone-wait-after-the-others $((SECONDS - alone_wait_started))" >> "$results_dir/walltimes"
  [ "$(cat "$results_dir/alone.rc" 2>/dev/null)" = 0 ] || status=1
else
  run_alone "$@"
fi
cat "$results_dir/core.log"
rm -f "$results_dir/core.log" "$results_dir/core.rc"
if [ -n "$browser_pid" ]; then
  cat "$results_dir/browser.log"
  rm -f "$results_dir/browser.log" "$results_dir/browser.rc"
elif [ "${MCS_BROWSER_BESIDE_MEDUSA:-1}" != 1 ] && { [ -n "${CHROMIUM_PATH:-}" ] || command -v chromium >/dev/null 2>&1; }; then
  run_project browser browser --runInBand "$@"
fi
if [ -n "$alone_pid" ]; then
  cat "$results_dir/alone.log"
  rm -f "$results_dir/alone.log" "$results_dir/alone.rc"
fi
echo "=== jest project: install"
cat "$results_dir/install.log"
[ "$(cat "$results_dir/install.rc" 2>/dev/null)" = 0 ] || status=1
rm -f "$results_dir/install.log" "$results_dir/install.rc"

if [ -n "$versions_pid" ]; then
  echo "=== node versions 22 and 24"
  cat "$results_dir/versions.log"
  rm -f "$results_dir/versions.log"
fi
echo "=== wall time per pass (s)"
cat "$results_dir/walltimes"
[ -e "$results_dir/install.time" ] && echo "install (background, from the start) $(cat "$results_dir/install.time")"
echo "all $((SECONDS - suite_started))"
rm -f "$results_dir/walltimes" "$results_dir/install.time"

# The slowest test files, so a run that grows too long shows where its time went.
node scripts/report-test-times.js "$results_dir" || true

if [ -n "$versions_pid" ]; then
  MCS_NODE_VERSIONS_STAGE=report MCS_NODE_VERSIONS_RESULTS="$versions_results" bash scripts/test-node-versions.sh || status=1
  rm -rf "$versions_results"
fi
node -e '
const fs = require("fs"), path = require("path");
let passed = 0, failed = 0;
for (const f of fs.readdirSync(process.argv[1]).filter((f) => f.endsWith(".json"))) {
  const r = JSON.parse(fs.readFileSync(path.join(process.argv[1], f), "utf8"));
  passed += r.numPassedTests; failed += r.numFailedTests;
  // A suite that failed to run (syntax error, failed hook) has no failed test: count it.
  failed += r.testResults.filter((s) => s.status === "failed" && !s.assertionResults.some((a) => a.status === "failed")).length;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
' "$results_dir" || status=1
exit $status
