#!/usr/bin/env bash
# Builds the app and runs the Playwright journeys against it (the server is started by
# Playwright's webServer on a fresh PostgreSQL database and a fresh data folder).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build
npx playwright test -c apps/web/playwright.config.ts "$@"
