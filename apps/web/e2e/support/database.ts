import pg from 'pg';
import { E2E_DATABASE_URL } from './environment';

/** Runs SQL on the database of the server under test, to arrange what no screen sets up yet. */
export async function sql(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}
