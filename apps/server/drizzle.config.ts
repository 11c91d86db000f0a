import { defineConfig } from 'drizzle-kit';

/** `npx drizzle-kit generate` writes SQL migrations, committed and applied at start. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
});
