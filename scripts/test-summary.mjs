// Prints one closing line for every tier: "all tiers: N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let missing = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`test summary: ${file} is missing (that tier did not run)`);
    missing += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if ('numPassedTests' in report) {
    // vitest json reporter
    passed += report.numPassedTests;
    failed += report.numFailedTests;
  } else if (report.stats) {
    // playwright json reporter
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
  }
}
console.log(`all tiers: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || missing > 0 || passed === 0 ? 1 : 0);
