#!/usr/bin/env bash
# Builds the app and runs the Playwright journeys against it (the server is started by
# Playwright's webServer on a fresh PostgreSQL database and a fresh data folder).
# With arguments (a spec, a -g filter) one run; without, the journeys in two shards side by side,
# each with its own server, database, sandboxes and results (test-results/playwright-N.json): the
# journeys wait on the browser and the server much of the time, so two overlap well on two cores.
# The timed journeys (Playwright project `quiet`) run after the shards, alone (playwright-3.json).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build
# Initial JavaScript per route (gzipped): login <= 200 KB, case list, case page and shop <= 350 KB;
# the 3D and DICOM viewers stay out of the case page's initial chunks (docs/performance.md, Browser).
npm run budget -w @dentflow/web
config=apps/web/playwright.config.ts
if [ "$#" -gt 0 ]; then
  exec npx playwright test -c "$config" "$@"
fi
rm -f test-results/playwright-*.json
# run <n> <playwright arguments>: one Playwright run with its own server, database and results.
run() {
  local n=$1
  shift
  E2E_RUN="playwright-$n" E2E_PORT=$((3100 + 10 * n)) E2E_PAYPAL_PORT=$((3201 + 10 * n)) \
    E2E_PAGBANK_PORT=$((3202 + 10 * n)) E2E_DATABASE="dentflow_e2e_$n" \
    npx playwright test -c "$config" "$@" 2>&1 | sed -u "s/^/[run $n] /"
}
status=0
run 1 --project=chromium --shard=1/2 &
first=$!
run 2 --project=chromium --shard=2/2 &
second=$!
wait "$first" || status=1
wait "$second" || status=1
# Then, alone on the machine, the journeys that hold the browser to a wall-clock budget (the
# time to the first case card): beside a shard they would time the other shard's load too.
run 3 --project=quiet || status=1
exit $status
