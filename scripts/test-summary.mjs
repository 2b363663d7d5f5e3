// Prints the closing line of scripts/test.sh from a vitest JSON report:
//   `N passed, N failed` and `, N skipped` when any test was skipped or left to do.
// A suite that fails without a failed test of its own (it did not load, threw while collecting, or a
// hook failed so its tests show as skipped) counts as one failure, so a run never reads as clean
// when a whole file did not run. Exit status 1 when anything failed or no test ran.
// Usage: node scripts/test-summary.mjs REPORT.json
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/test-summary.mjs REPORT.json');
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const brokenSuites = report.testResults.filter(
  (suite) => suite.status === 'failed' && !suite.assertionResults.some((t) => t.status === 'failed'),
).length;
const failed = report.numFailedTests + brokenSuites;
const skipped = report.numPendingTests + (report.numTodoTests ?? 0);
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
if (report.numTotalTests === 0) console.error('no test ran');
process.exit(failed === 0 && report.numTotalTests > 0 ? 0 : 1);
