// Measures the gzipped JavaScript a route loads: the entry chunk, the route's chunk, and every
// chunk they import statically (the login route loads at most 200 KB gzipped).
// Usage: node scripts/route-budget.mjs [route-chunk-prefix=login-page] [budgetKB=200]
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const assets = join(dist, 'assets');
const [routePrefix = 'login-page', budgetArg = '200'] = process.argv.slice(2);
const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = html.match(/src="\/assets\/([^"]+\.js)"/)?.[1];
const route = files.find((f) => f.startsWith(`${routePrefix}-`));
if (!entry || !route) throw new Error(`entry (${entry}) or route chunk (${routePrefix}) not found`);

const staticImports = (file) =>
  [
    ...readFileSync(join(assets, file), 'utf8').matchAll(
      /(?:import|export)\s*(?:[\w{}\s,*$]+from\s*)?["']\.\/([^"']+\.js)["']/g,
    ),
  ].map((m) => m[1]);
const seen = new Set();
const visit = (file) => {
  if (seen.has(file)) return;
  seen.add(file);
  staticImports(file).forEach(visit);
};
visit(entry);
visit(route);
let total = 0;
for (const file of seen) total += gzipSync(readFileSync(join(assets, file))).length;
const kb = total / 1024;
console.log(
  `${routePrefix}: ${seen.size} chunks, ${kb.toFixed(1)} KB gzipped JS (budget ${budgetArg} KB)`,
);
if (kb > Number(budgetArg)) process.exitCode = 1;
