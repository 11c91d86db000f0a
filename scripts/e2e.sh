#!/usr/bin/env bash
# Builds the app and runs the Playwright journeys against it (the server is started by
# Playwright's webServer on a fresh PostgreSQL database and a fresh data folder).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build
# Initial JavaScript per route (gzipped): login <= 200 KB, case list, case page and shop <= 350 KB;
# the 3D and DICOM viewers stay out of the case page's initial chunks (docs/performance.md, Browser).
npm run budget -w @dentflow/web
npx playwright test -c apps/web/playwright.config.ts "$@"
