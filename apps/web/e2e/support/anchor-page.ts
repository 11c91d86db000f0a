import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The anchor page of the first-card journey: a fixed page that does the same kinds of work as a
 * first load of the case list (many module files to fetch, compile and run, a large stylesheet,
 * elements to create and lay out) in a fixed amount, none of it the product's. Loaded the same
 * way as the product's page in the same run, its time tells how fast this machine is for page
 * loads right now, the way the bare server anchors the API bench (docs/performance.md, "Browser").
 * Generated here, so that nothing the product ships changes it.
 */
const MODULES = 100;
const FUNCTIONS_PER_MODULE = 20;
const STYLE_RULES = 2_500;
const ITEMS_PER_MODULE = 5;

function moduleSource(index: number): string {
  const functions = Array.from(
    { length: FUNCTIONS_PER_MODULE },
    (_, f) =>
      `function f${f}(seed) {\n` +
      `  const parts = [];\n` +
      `  for (let i = 0; i < 8; i += 1) parts.push(String((seed * ${f + 3} + i) % 97));\n` +
      `  return { key: 'm${index}f${f}', value: parts.join('-'), size: parts.length };\n` +
      `}`,
  ).join('\n');
  const calls = Array.from({ length: FUNCTIONS_PER_MODULE }, (_, f) => `f${f}(seed)`).join(', ');
  return (
    `${functions}\n` +
    `export function render${index}(parent, seed) {\n` +
    `  const results = [${calls}];\n` +
    `  for (let i = 0; i < ${ITEMS_PER_MODULE}; i += 1) {\n` +
    `    const item = document.createElement('div');\n` +
    `    item.className = 'c' + ((seed + i) % ${STYLE_RULES}) + ' item';\n` +
    `    const label = document.createElement('span');\n` +
    `    label.textContent = results[i].key + ' ' + results[i].value;\n` +
    `    item.appendChild(label);\n` +
    `    parent.appendChild(item);\n` +
    `  }\n` +
    `}\n`
  );
}

function entrySource(): string {
  const imports = Array.from(
    { length: MODULES },
    (_, m) => `import { render${m} } from './m${m}.js';`,
  ).join('\n');
  const renders = Array.from({ length: MODULES }, (_, m) => `render${m}(list, ${m});`).join('\n');
  return (
    `${imports}\n` +
    `const list = document.createElement('main');\n` +
    `${renders}\n` +
    `document.body.appendChild(list);\n` +
    `const card = document.createElement('article');\n` +
    `card.dataset.testid = 'case-card';\n` +
    `card.className = 'card';\n` +
    `card.textContent = 'Teodora Cronometrada';\n` +
    `list.prepend(card);\n`
  );
}

/** A fixed colour per rule: the low six hex digits of a multiple of the rule's number. */
const colour = (n: number) => `#${n.toString(16).padStart(6, '0').slice(-6)}`;

function styleSource(): string {
  return Array.from(
    { length: STYLE_RULES },
    (_, r) =>
      `.c${r} { padding: ${r % 7}px ${r % 11}px; margin: ${r % 5}px; border: 1px solid ${colour(r * 4099)}; font-size: ${12 + (r % 6)}px; }\n` +
      `.c${r} > span:hover { color: ${colour(r * 7919)}; }`,
  ).join('\n');
}

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Anchor</title>' +
  '<link rel="stylesheet" href="/anchor/style.css" />' +
  '<script type="module" src="/anchor/entry.js"></script></head><body></body></html>';

/** Serves the anchor page on a port of its own; `url` is the page to load. */
export async function startAnchorServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const files = new Map<string, { body: string; type: string }>([
    ['/anchor/', { body: PAGE, type: 'text/html' }],
    ['/anchor/style.css', { body: styleSource(), type: 'text/css' }],
    ['/anchor/entry.js', { body: entrySource(), type: 'text/javascript' }],
  ]);
  for (let m = 0; m < MODULES; m += 1) {
    files.set(`/anchor/m${m}.js`, { body: moduleSource(m), type: 'text/javascript' });
  }
  const server: Server = createServer((request, response) => {
    const file = files.get(request.url ?? '');
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/anchor/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
