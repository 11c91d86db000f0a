import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  CASE_STATUSES,
  ROLES,
  emptyServiceDataV3,
  requiredAttachmentSlots,
  type CaseDetail,
  type CaseStatus,
  type ServiceDataV3,
} from '@dentflow/domain';
import type { Db } from '../../src/db/client';
import { attachments, products, users } from '../../src/db/schema';
import { hashPassword } from '../../src/security/passwords';
import { bearer, json, login, type Session } from './test-app';

/** Cases test helpers: extra users, product ids, API calls, a public client file. */

export type Method = 'GET' | 'POST' | 'DELETE';

export const caseApi =
  (app: FastifyInstance) =>
  (
    session: Session,
    method: Method,
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url: `/api/v1/case/${url}`,
      headers: bearer(session),
      ...(payload ? { payload } : {}),
    });

export const codeOf = (response: LightMyRequestResponse) => json<{ code: string }>(response).code;
export const objOf = <T = CaseDetail>(response: LightMyRequestResponse): T =>
  json<{ obj: T }>(response).obj;

let counter = 0;
/**
 * A verified user with these roles (password Dentflow123), logged in. `instructorId` makes them
 * that instructor's student.
 */
export async function createUser(
  app: FastifyInstance,
  roles: string[],
  options: { instructorId?: number; language?: 'en' | 'ptBR' | 'es' } = {},
): Promise<Session> {
  counter += 1;
  const nick = `u${Date.now().toString(36)}${counter}${roles.join('')}`.slice(0, 30);
  const db = app.database.db;
  const [demo] = await db.select().from(users).where(eq(users.nickName, 'doctor')).limit(1);
  const language = options.language ?? 'en';
  await db.insert(users).values({
    email: `${nick}@cases.test`,
    nickName: nick,
    fname: 'Test',
    lname: roles.join(' '),
    displayName: `Test ${nick}`,
    passwordHash: await hashPassword('Dentflow123'),
    roles,
    verifiedAt: new Date(),
    dataInfo: {
      ...demo!.dataInfo,
      language,
      currency: language === 'ptBR' ? 'BRL' : 'USD',
    },
    dataAddress: demo!.dataAddress,
    dataCapabilities: { ...demo!.dataCapabilities, instructorId: options.instructorId ?? null },
  });
  return login(app, nick);
}

/**
 * The seed makes the demo doctor and clinic Brazilian (Portuguese, reais). A file whose checks
 * read English messages or dollar prices from them makes them English-speaking, with dollars,
 * first (each test file has its own database).
 */
export async function speakEnglish(app: FastifyInstance, ...nickNames: string[]): Promise<void> {
  for (const nickName of nickNames) {
    await app.database.db
      .update(users)
      .set({
        dataInfo: sql`${users.dataInfo} || '{"language":"en","currency":"USD"}'::jsonb`,
      })
      .where(eq(users.nickName, nickName));
  }
}

export async function productIdByCode(db: Db, code: string): Promise<number> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, code))
    .limit(1);
  if (!row) throw new Error(`no product ${code}`);
  return row.id;
}

/** A public, non-deleted file of the case uploaded by `userId` (the files feature's end state). */
export async function insertPublicAttachment(
  db: Db,
  caseId: number,
  userId: number,
  overrides: Partial<typeof attachments.$inferInsert> = {},
): Promise<number> {
  const [row] = await db
    .insert(attachments)
    .values({
      caseId,
      userId,
      bucketName: 'photoProtocol',
      attachmentType: 'generic',
      status: 'public',
      filename: 'photo.jpg',
      filesize: 1234,
      mimetype: 'image/jpeg',
      storageKey: `test/${caseId}/${Date.now()}-${Math.random()}`,
      uploadedAt: new Date(),
      ...overrides,
    })
    .returning({ id: attachments.id });
  return row!.id;
}

/**
 * Public client files in every slot any category may require (the full photo protocol, both jaw
 * scans and the CT exam), so validation's required-slots check passes whatever the services.
 */
export async function insertRequiredFiles(db: Db, caseId: number, userId: number): Promise<void> {
  const slots = requiredAttachmentSlots([1, 2, 3, 4, 5, 6, 7, 8]);
  for (const slot of slots) {
    await insertPublicAttachment(db, caseId, userId, {
      bucketName: slot.bucketName,
      attachmentType: slot.attachmentType,
    });
  }
}

/** A supervisor's validation of a case no order paid: billed later, with its reason. */
export const VALIDATE_BILLED_LATER = {
  action: 'validate',
  paymentOverride: { reason: 'Billed monthly' },
} as const;

/** Current-layout data that passes every section of a category. */
export function completeServiceData(): ServiceDataV3 {
  return {
    ...emptyServiceDataV3(),
    jaw: 'upper',
    implantSystem: { manufactureName: 'Neodent', systemName: 'GM' },
    extractTeeth: false,
    hasOrtho: false,
    plasticGum: false,
    increaseDVO: { checked: false, howMuch: null },
    treatmentPurpose: { purpose: 4 },
    provision: true,
    terms: { checked: true },
    extra: 'Notes',
  };
}

export interface CaseSetup {
  app: FastifyInstance;
  /** Sessions of the actors by name. */
  owner: Session;
  supervisor: Session;
  planner: Session;
  printer: Session;
}

/** Every status a case reaches through moves (the legacy 'archive' status is not one). */
export const FIXTURE_STATUSES = CASE_STATUSES.filter(
  (status): status is Exclude<CaseStatus, 'archive'> => status !== 'archive',
);
export type FixtureStatus = (typeof FIXTURE_STATUSES)[number];

/**
 * Opens a case as `owner` with one service of `productCode`, complete data and a public client
 * file, then moves it with `supervisor`, `planner`, `printer` and `owner` up to `status`.
 * Returns the case id.
 */
export async function caseInStatus(
  s: CaseSetup,
  status: FixtureStatus,
  options: { productCode?: string; patient?: { fname: string; lname: string } } = {},
): Promise<number> {
  const api = caseApi(s.app);
  const must = async (response: LightMyRequestResponse) => {
    if (response.statusCode !== 200) {
      throw new Error(`${response.statusCode} ${response.body}`);
    }
    return objOf(response);
  };
  const created = await must(
    await api(s.owner, 'POST', 'new', {
      patient: options.patient ?? { fname: 'Ana', lname: 'Silva' },
    }),
  );
  const id = created.id;
  const productId = await productIdByCode(s.app.database.db, options.productCode ?? 'MFG-GUIDE');
  const withService = await must(await api(s.owner, 'POST', `${id}/services/add`, { productId }));
  for (const service of withService.services) {
    await must(
      await api(s.owner, 'POST', `${id}/services/${service.id}/data`, {
        dataVersion: 3,
        data: completeServiceData(),
      }),
    );
  }
  await insertRequiredFiles(s.app.database.db, id, s.owner.profile.id);
  if (status === 'new') return id;
  if (status === 'cancelled') {
    await must(await api(s.owner, 'POST', `${id}/move`, { action: 'cancel' }));
    return id;
  }
  await must(await api(s.owner, 'POST', `${id}/move`, { action: 'submit' }));
  if (status === 'checkingout') return id;
  await must(await api(s.supervisor, 'POST', `${id}/planner`, { plannerId: s.planner.profile.id }));
  // No order was placed: the supervisor validates it as billed later (the payment override).
  await must(await api(s.supervisor, 'POST', `${id}/move`, VALIDATE_BILLED_LATER));
  if (status === 'execute') return id;
  if (status === 'revision') {
    await must(await api(s.owner, 'POST', `${id}/move`, { action: 'backToNew' }));
    return id;
  }
  const requested = await must(
    await api(s.planner, 'POST', `${id}/move`, { action: 'requestApproval' }),
  );
  if (status === 'approve') return id;
  await must(
    await api(s.owner, 'POST', `${id}/move`, {
      action: 'approve',
      password: 'Dentflow123',
      text: 'Approved',
      serviceIds: requested.services.map((x) => x.id),
    }),
  );
  if (status === 'finishing') return id;
  const printable = requested.services.some((x) => x.printableProduct);
  if (printable) {
    await must(await api(s.planner, 'POST', `${id}/move`, { action: 'startPrint' }));
    if (status === 'print') return id;
  }
  await must(await api(s.planner, 'POST', `${id}/move`, { action: 'finish' }));
  if (status === 'finished') return id;
  await must(await api(s.owner, 'POST', `${id}/move`, { action: 'close' }));
  return id;
}

/** The usual actors of a case: the demo doctor (or `owner`) owns it; supervisor, planner, printer. */
export function caseSetup(
  app: FastifyInstance,
  sessions: Awaited<ReturnType<typeof demoSessions>>,
  owner: Session = sessions.doctor,
): CaseSetup {
  const { supervisor, planner, printer } = sessions;
  return { app, owner, supervisor, planner, printer };
}

/** Demo sessions for the usual actors. */
export async function demoSessions(app: FastifyInstance) {
  const names = ROLES;
  const sessions = await Promise.all(names.map((name) => login(app, name)));
  return Object.fromEntries(names.map((name, i) => [name, sessions[i]!])) as Record<
    (typeof names)[number],
    Session
  >;
}

/** Sets a case's deadline directly (the deadline-near job's input). */
export async function setDeadline(db: Db, caseId: number, deadlineAt: Date): Promise<void> {
  await db.execute(
    sql`update cases set deadline_at = ${deadlineAt.toISOString()}::timestamptz where id = ${caseId}`,
  );
}
