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
 * The client's public files of a guided-surgery case planned on the upper jaw: a photo, the
 * upper-jaw scan and the CT exam (the required slots validation needs), as rows only.
 */
export async function insertClientFiles(caseId: number, ownerNick: string): Promise<void> {
  await sql(
    `insert into attachments (case_id, user_id, bucket_name, attachment_type, status, filename,
       filesize, mimetype, storage_key, uploaded_at)
     select $1::int, users.id, f.bucket, f.kind, 'public', f.name, 1234, f.mime,
       'e2e/' || $1::text || '/' || f.kind, now()
     from users, (values ('cases', 'photo', 'face.jpg', 'image/jpeg'),
                         ('exams', 'upperJawStl', 'upper.stl', 'model/stl'),
                         ('exams', 'dicom', 'ct.dcm', 'application/dicom'))
                 as f(bucket, kind, name, mime)
     where nick_name = $2`,
    [caseId, ownerNick],
  );
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
