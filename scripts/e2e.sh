#!/usr/bin/env bash
# Builds the app and runs the Playwright journeys against it (the server is started by
# Playwright's webServer on a fresh PostgreSQL database and a fresh data folder).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build
# The login route loads at most 200 KB of gzipped JavaScript.
npm run budget -w @dentflow/web
npx playwright test -c apps/web/playwright.config.ts "$@"
