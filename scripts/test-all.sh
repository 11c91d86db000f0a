#!/usr/bin/env bash
# `npm test`: every tier — domain and web unit/component tests, server integration tests on real
# PostgreSQL (and PGlite), the Playwright journeys in Debian Chromium against the built app, then
# the fault test (three instances behind HAProxy on its own PostgreSQL and Redis, faults under
# load; docs/operations.md).
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results

bash scripts/ensure-services.sh || exit 1

status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=1
bash scripts/e2e.sh || status=1
# After the journeys: it runs the build they just made.
rm -f test-results/faults.json
FAULTS_REPORT=test-results/faults.json npm run test:faults || status=1

node scripts/test-summary.mjs test-results/vitest.json test-results/playwright-1.json \
  test-results/playwright-2.json test-results/playwright-3.json \
  test-results/faults.json || status=1
exit $status
