import pg from 'pg';
import { currencyForLanguage, type Language } from '@dentflow/domain';
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

/** Runs a query on the database of the server under test and returns its rows (to check results). */
export async function queryRows<Row extends Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Makes a demo user work in a language, with that language's currency (ptBR: reais, else dollars).
 * The seed makes the demo doctor and clinic Brazilian and the others English-speaking; a journey
 * that needs a user in a language sets it first, so no journey depends on another's leftovers.
 */
export async function setUserLanguage(nickName: string, language: Language): Promise<void> {
  await sql(
    `update users
        set data_info = data_info || jsonb_build_object('language', $2::text, 'currency', $3::text)
      where nick_name = $1`,
    [nickName, language, currencyForLanguage(language)],
  );
}
