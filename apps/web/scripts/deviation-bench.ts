// Times the deviation map (apps/web/src/features/attachments/viewers/plan-compare/deviation.ts)
// on a generated 200,000-triangle arch: five runs after a warm-up, the median and the slowest
// in wall time, and the processor time per run (wall time above it means other processes had the
// cores). Exits 1 when the median is 2 s or more (docs/performance.md, "Browser").
// Usage: npm run bench:deviation -w @dentflow/web
import { computeDeviation } from '../src/features/attachments/viewers/plan-compare/deviation';
import { archPair } from '../src/features/attachments/viewers/plan-compare/test-meshes';

const { older, newer } = archPair();
computeDeviation(older, newer);
const times: number[] = [];
const processor = process.cpuUsage();
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  computeDeviation(older, newer);
  times.push(performance.now() - started);
}
const used = process.cpuUsage(processor);
times.sort((a, b) => a - b);
const median = times[2]!;
console.log(
  `deviation map, ${newer.length / 9} triangles: median ${median.toFixed(0)} ms, ` +
    `slowest ${times[4]!.toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')}); ` +
    `processor time ${((used.user + used.system) / 5000).toFixed(0)} ms per run`,
);
if (median >= 2000) process.exitCode = 1;
