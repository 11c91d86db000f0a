// Checks the gzipped JavaScript each budgeted route loads before it renders, from the Vite manifest
// of the last build (`npm run build -w @dentflow/web` first). A route's initial JavaScript is the
// entry chunk, the lazy route modules it renders (layout and page) and every chunk those import
// statically (the manifest's `imports`; `dynamicImports` load later, on demand). The language
// catalogue, which also arrives before the first render, is shown next to it (the largest of the
// three) but is not part of the budget.
// It also checks that the 3D, compare and DICOM viewers (and three-mesh-bvh) stay out of the case
// page's initial chunks.
// Prints a table; exits 1 on an overrun or a viewer in an initial chunk.
// Usage: node scripts/route-budget.mjs [--json]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const MAIN_LAYOUT = 'src/app/layouts/main-layout.tsx';
const CATALOGUES = [
  'src/lib/catalogues/en.ts',
  'src/lib/catalogues/es.ts',
  'src/lib/catalogues/ptBR.ts',
];
const VIEWERS = [
  'src/features/attachments/viewers/stl-viewer.tsx',
  'src/features/attachments/viewers/dicom-viewer.tsx',
  'src/features/attachments/viewers/plan-compare/plan-compare-viewer.tsx',
];
/**
 * Strings only three.js, @react-three/fiber, three-mesh-bvh (the compare viewer's deviation map)
 * and dwv (the DICOM toolkit) put in a chunk.
 */
const VIEWER_MARKERS = [
  { library: 'three', marker: '__THREE__' },
  { library: 'three-mesh-bvh', marker: 'Only BufferGeometries are supported' },
  // The property R3F keeps on every object it manages; not 'R3F', which a chunk's hashed file
  // name (imported by its neighbours) can hold.
  { library: '@react-three/fiber', marker: '__r3f' },
  { library: 'dwv', marker: 'dwv' },
  { library: 'dwv', marker: '1.2.840.10008' },
];

export const ROUTES = [
  {
    route: 'login',
    path: '/login',
    modules: ['src/features/auth/routes/login-page.tsx'],
    budgetKb: 200,
  },
  {
    route: 'case list',
    path: '/cases/:filter',
    modules: [MAIN_LAYOUT, 'src/features/cases/routes/cases-page.tsx'],
    budgetKb: 350,
  },
  {
    route: 'case page',
    path: '/case/:id',
    modules: [MAIN_LAYOUT, 'src/features/cases/routes/case-page.tsx'],
    budgetKb: 350,
    withoutViewers: true,
  },
  {
    route: 'shop',
    path: '/shop',
    modules: [MAIN_LAYOUT, 'src/features/shop/routes/shop-page.tsx'],
    budgetKb: 350,
  },
];

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('the Vite manifest has no entry chunk');

const chunkOf = (key) => {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the Vite manifest (renamed or no longer lazy?)`);
  return chunk;
};

/** The manifest keys a set of modules loads statically, themselves included. */
function staticClosure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    (chunkOf(key).imports ?? []).forEach(visit);
  };
  keys.forEach(visit);
  return seen;
}

const gzipCache = new Map();
function gzippedBytes(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(join(dist, file))).length);
  return gzipCache.get(file);
}

const largestCatalogue = CATALOGUES.map((key) => ({ key, file: chunkOf(key).file })).sort(
  (a, b) => gzippedBytes(b.file) - gzippedBytes(a.file),
)[0];

const results = ROUTES.map(({ route, path, modules, budgetKb, withoutViewers }) => {
  const keys = staticClosure([entryKey, ...modules]);
  const files = [...new Set([...keys].map((key) => chunkOf(key).file))];
  const kb = files.reduce((sum, file) => sum + gzippedBytes(file), 0) / 1024;
  const problems = [];
  if (kb > budgetKb) problems.push(`${(kb - budgetKb).toFixed(1)} KB over budget`);
  if (withoutViewers) {
    for (const viewer of VIEWERS) {
      if (keys.has(viewer)) problems.push(`${viewer} is loaded statically`);
      if (!chunkOf(viewer).isDynamicEntry) problems.push(`${viewer} is not a lazy chunk`);
    }
    for (const file of files) {
      const code = readFileSync(join(dist, file), 'utf8');
      for (const { library, marker } of VIEWER_MARKERS) {
        if (code.includes(marker)) problems.push(`${file} holds ${library} code ("${marker}")`);
      }
    }
  }
  const withCatalogueKb = kb + gzippedBytes(largestCatalogue.file) / 1024;
  return { route, path, chunks: files.length, kb, withCatalogueKb, budgetKb, problems };
});

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(results, null, 2));
} else {
  const rows = [
    ['route', 'path', 'chunks', 'initial JS (gzip)', 'budget', '+ catalogue', 'result'],
    ...results.map((r) => [
      r.route,
      r.path,
      String(r.chunks),
      `${r.kb.toFixed(1)} KB`,
      `${r.budgetKb} KB`,
      `${r.withCatalogueKb.toFixed(1)} KB`,
      r.problems.length ? 'FAIL' : 'ok',
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  console.log(
    `initial = entry + lazy layout and page + their static imports; + catalogue adds ${largestCatalogue.file}`,
  );
  const caseViewerCheck = results.find((r) => r.route === 'case page');
  if (
    caseViewerCheck &&
    !caseViewerCheck.problems.some((p) => /viewer|three|dwv|R3F|BufferGeometries/.test(p))
  ) {
    console.log(
      'case page: no initial chunk holds three, @react-three/fiber, three-mesh-bvh or dwv code',
    );
  }
}
for (const r of results) for (const problem of r.problems) console.log(`${r.route}: ${problem}`);
if (results.some((r) => r.problems.length)) process.exitCode = 1;
