import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory of this module: `src/` in development, `dist/` in the bundle. */
export const moduleDir = dirname(fileURLToPath(import.meta.url));

/**
 * The workspace root (the package.json with "workspaces"), found by walking up from this module,
 * so defaults such as `./data` mean the same folder whether started from the root or apps/server.
 * Falls back to the working directory when the server runs outside the repository.
 */
export function findRepoRoot(start = moduleDir): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { workspaces?: unknown };
        if (parsed.workspaces) return dir;
      } catch {
        // unreadable manifest: keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

/** Relative paths given by the user are relative to where they typed the command. */
export function resolveUserPath(value: string): string {
  if (isAbsolute(value)) return value;
  return resolve(process.env.INIT_CWD ?? process.cwd(), value);
}
