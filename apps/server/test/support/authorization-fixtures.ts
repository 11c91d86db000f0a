import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  CERTIFICATE_CODE_BYTES,
  certificateCodeOf,
  emptyServiceDataV3,
  type Role,
} from '@dentflow/domain';
import type { Db } from '../../src/db/client';
import {
  attachments,
  caseApprovalRecords,
  caseServices,
  clinicPartners,
  coupons,
  invitations,
  productCategories,
  products,
  users,
} from '../../src/db/schema';
import { hashToken } from '../../src/security/tokens';
import {
  caseInStatus,
  createUser,
  demoSessions,
  insertPublicAttachment,
  productIdByCode,
} from './cases-fixtures';
import {
  announce,
  multipartBody,
  postLocal,
  samplePng,
  uploadFile,
  type Announced,
} from './storage-fixtures';
import { bearer, json, login, type Session } from './test-app';
import { NO_RECORD, type MatrixCaller, type RecordCase } from './authorization-matrix';

/**
 * The records of the authorization matrix (docs/permissions.md "Authorization matrix"): for
 * every caller its own record of each kind, another's record it has no relation to, and an id
 * that does not exist. Built through the API on the cloned demo database (demo accounts, one per
 * role), with a few rows written directly where the API offers no shortcut.
 */

/** An id no record has (within the bounded id range). */
export const MISSING_ID = 2_147_483_000;

/** The ids a call needs, by name (`caseId`, `transactionId`…). */
export type RecordIds = Record<string, unknown>;

/**
 * The cases the records hang on. 'doctor': the demo doctor's case (a student of the demo
 * instructor) with the demo planner on its service; 'clinic': the demo clinic's case with the
 * demo partner added by the clinic; 'print': the demo doctor's printable case in print (the
 * printer sees it); 'stranger': a case of a doctor nobody relates to. Each has a Pix transaction
 * of its owner awaiting payment, which moves the new ones to checkingout.
 */
export type Family = 'doctor' | 'clinic' | 'print' | 'stranger';

/** Whose case is each caller's own (anonymous: the doctor's, to have something to ask for). */
export const OWN_FAMILY: Record<MatrixCaller, Exclude<Family, 'stranger'>> = {
  admin: 'doctor',
  supervisor: 'doctor',
  planner: 'doctor',
  printer: 'print',
  clinic: 'clinic',
  doctor: 'doctor',
  partner: 'clinic',
  instructor: 'doctor',
  anonymous: 'doctor',
};

export interface FamilyCase {
  caseId: number;
  owner: Session;
  serviceId: number;
  transactionId: number;
}

export interface World {
  app: FastifyInstance;
  db: Db;
  /** The demo account of each role. */
  sessions: Record<Role, Session>;
  /** A doctor (ptBR) nobody relates to: the owner of 'stranger' records. */
  stranger: Session;
  /** A partner linked to the demo clinic and added to every family case (the removable member). */
  memberPartnerId: number;
  /** An instructor other than the demo one. */
  otherInstructorId: number;
  /** A planner other than the demo one (the one calls set on the stranger's case). */
  otherPlannerId: number;
  families: Record<Family, FamilyCase>;
}

export async function must(
  pending: Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse> {
  const response = await pending;
  if (response.statusCode >= 300) {
    throw new Error(`fixture call failed: ${response.statusCode} ${response.body}`);
  }
  return response;
}

const objOf = <T>(response: LightMyRequestResponse) => json<{ obj: T }>(response).obj;

export const api =
  (app: FastifyInstance) =>
  (session: Session | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: session ? bearer(session) : {},
      ...(payload ? { payload } : {}),
    });

/** Pix is for BRL: the owners of the families pay in reais. */
async function payInReais(db: Db, userId: number) {
  await db.execute(
    sql`update users set data_info = data_info || '{"language":"ptBR","currency":"BRL"}'::jsonb where id = ${userId}`,
  );
}

export async function buildWorld(app: FastifyInstance): Promise<World> {
  const db = app.database.db;
  const [sessions, stranger, memberPartnerId, otherInstructorId, otherPlannerId] =
    await Promise.all([
      demoSessions(app),
      createUser(app, ['doctor'], { language: 'ptBR' }),
      insertUser(db, ['partner']),
      insertUser(db, ['instructor']),
      insertUser(db, ['planner']),
    ]);
  await payInReais(db, sessions.doctor.profile.id);
  await payInReais(db, sessions.clinic.profile.id);
  for (const partnerId of [sessions.partner.profile.id, memberPartnerId]) {
    await must(
      api(app)(sessions.admin, 'POST', '/api/v1/partners/link', {
        clinicId: sessions.clinic.profile.id,
        partnerId,
      }),
    );
  }
  const world = {
    app,
    db,
    sessions,
    stranger,
    memberPartnerId,
    otherInstructorId,
    otherPlannerId,
  } as World;
  const [doctor, clinic, print, strangerCase] = await Promise.all([
    buildFamily(world, 'doctor'),
    buildFamily(world, 'clinic'),
    buildFamily(world, 'print'),
    buildFamily(world, 'stranger'),
  ]);
  world.families = { doctor, clinic, print, stranger: strangerCase };
  return world;
}

/** A new case of the family, as described at `Family`. */
export async function buildFamily(world: World, family: Family): Promise<FamilyCase> {
  const { app, sessions } = world;
  const call = api(app);
  const owner =
    family === 'clinic'
      ? sessions.clinic
      : family === 'stranger'
        ? world.stranger
        : sessions.doctor;
  const caseId = await caseInStatus(
    {
      app,
      owner,
      supervisor: sessions.supervisor,
      planner: sessions.planner,
      printer: sessions.printer,
    },
    family === 'print' ? 'print' : 'new',
  );
  // The cases helper files its client photo under a bucket the files API does not list.
  await world.db
    .update(attachments)
    .set({ bucketName: 'photoProtocol' })
    .where(eq(attachments.caseId, caseId));
  const path = `/api/v1/case/${caseId}`;
  if (family === 'doctor' || family === 'clinic') {
    await must(
      call(sessions.supervisor, 'POST', `${path}/planner`, {
        plannerId: sessions.planner.profile.id,
      }),
    );
  }
  if (family === 'clinic') {
    for (const userId of [sessions.partner.profile.id, world.memberPartnerId]) {
      await must(
        call(sessions.clinic, 'POST', `${path}/users`, { userId, triggerNotification: false }),
      );
    }
  } else {
    await must(
      call(sessions.supervisor, 'POST', `${path}/users`, {
        userId: world.memberPartnerId,
        triggerNotification: false,
      }),
    );
  }
  // The internal channel has a message, so marking it seen has something to mark.
  await must(call(sessions.supervisor, 'POST', `${path}/chat/4`, { text: 'An internal note' }));
  const transaction = objOf<{ id: number; serviceIds: number[] }>(
    await must(
      call(owner, 'POST', `/api/v1/case/transaction/${caseId}/new`, { paymentMethod: 'pix' }),
    ),
  );
  return { caseId, owner, serviceId: transaction.serviceIds[0]!, transactionId: transaction.id };
}

/** What "own", "another's" and "none" are for one kind of record. */
export interface RecordKind {
  /** The caller's own record (`fresh`: a new one, for a call that changes it). */
  own(world: World, caller: MatrixCaller, fresh: boolean): Promise<RecordIds>;
  /** A record of the same kind the caller has no relation to. */
  another(world: World, caller: MatrixCaller, fresh: boolean): Promise<RecordIds>;
  /** A record that does not exist (for a record inside a case: in the caller's own case). */
  none(world: World, caller: MatrixCaller): Promise<RecordIds>;
}

const familyOf = async (world: World, family: Family, fresh: boolean) =>
  fresh ? buildFamily(world, family) : world.families[family];

/** Own = in the caller's own case, another = in the stranger's case. */
function inCase(
  make: (
    world: World,
    found: FamilyCase,
    family: Family,
    caller: MatrixCaller,
    fresh: boolean,
  ) => Promise<RecordIds>,
  missing: (found: FamilyCase) => RecordIds,
  options: { freshCase?: boolean } = {},
): RecordKind {
  const shared = new Map<string, Promise<RecordIds>>();
  const get = async (
    world: World,
    family: Family,
    caller: MatrixCaller,
    fresh: boolean,
  ): Promise<RecordIds> => {
    if (fresh) {
      const found = await familyOf(world, family, options.freshCase ?? false);
      return make(world, found, family, caller, true);
    }
    const key = `${family}:${caller}`;
    if (!shared.has(key)) {
      shared.set(key, make(world, world.families[family], family, caller, false));
    }
    return shared.get(key)!;
  };
  return {
    own: (world, caller, fresh) => get(world, OWN_FAMILY[caller], caller, fresh),
    another: (world, caller, fresh) => get(world, 'stranger', caller, fresh),
    none: async (world, caller) => missing(world.families[OWN_FAMILY[caller]]),
  };
}

/** The same record for every caller (a catalogue row, a setting…), with its unseen twin. */
function global(
  own: (world: World, fresh: boolean) => Promise<RecordIds>,
  another: (world: World, fresh: boolean) => Promise<RecordIds>,
  none: RecordIds,
): RecordKind {
  let sharedOwn: Promise<RecordIds> | undefined;
  let sharedAnother: Promise<RecordIds> | undefined;
  return {
    own: (world, _caller, fresh) => (fresh ? own(world, true) : (sharedOwn ??= own(world, false))),
    another: (world, _caller, fresh) =>
      fresh ? another(world, true) : (sharedAnother ??= another(world, false)),
    none: async () => none,
  };
}

const general = (session: Session) =>
  session.profile.dataGeneral as { nickName: string; email: string };
const nickNameOf = (session: Session) => general(session).nickName;
const emailOf = (session: Session) => general(session).email;

const sessionOf = (world: World, caller: MatrixCaller) =>
  world.sessions[caller === 'anonymous' ? 'doctor' : caller];

async function insertAttachment(
  db: Db,
  values: Partial<typeof attachments.$inferInsert> & { caseId: number | null; userId: number },
) {
  const [row] = await db
    .insert(attachments)
    .values({
      bucketName: 'planning',
      attachmentType: 'generic',
      status: 'private',
      filename: 'plan.stl',
      filesize: 1234,
      mimetype: 'model/stl',
      storageKey: `test/${values.caseId}/${randomBytes(8).toString('hex')}`,
      uploadedAt: new Date(),
      ...values,
    })
    .returning({ id: attachments.id });
  return row!.id;
}

/** An approval record of the case, written as the approve move writes one. */
async function insertApprovalRecord(world: World, caseId: number): Promise<RecordIds> {
  const [row] = await world.db
    .insert(caseApprovalRecords)
    .values({
      caseId,
      approverId: world.sessions.doctor.profile.id,
      approvedAt: new Date(),
      address: '127.0.0.1',
      text: 'Approved',
      language: 'en',
      certificateCode: certificateCodeOf(randomBytes(CERTIFICATE_CODE_BYTES)),
      patientName: 'Ana Lima',
      services: [],
      files: [
        {
          attachmentId: MISSING_ID,
          chainId: MISSING_ID,
          version: 1,
          fileName: 'plan.stl',
          size: 1,
          sha256: '0'.repeat(64),
        },
      ],
    })
    .returning({ id: caseApprovalRecords.id, code: caseApprovalRecords.certificateCode });
  return { approvalId: row!.id, code: row!.code };
}
/** A valid pin on a planning model (the matrix's pin calls and the 'pin' records). */
export const PIN_BODY = {
  point: [1, 2, 3],
  normal: [0, 0, 1],
  camera: { position: [0, 0, 100], target: [0, 0, 0] },
  note: 'A pin of the matrix',
};

/** A planning file of the case in `status`, uploaded by its planner (else a supervisor). */
const planningFile = (status: string) =>
  inCase(
    async (world, found, family) => ({
      attachmentId: await insertAttachment(world.db, {
        caseId: found.caseId,
        userId:
          family === 'stranger'
            ? world.sessions.supervisor.profile.id
            : world.sessions.planner.profile.id,
        status,
      }),
    }),
    () => ({ attachmentId: MISSING_ID }),
  );

/** Another Pix transaction of the case's owner, for a service added to pay. */
async function newTransaction(world: World, found: FamilyCase): Promise<number> {
  await insertService(world.db, found.caseId);
  const created = await must(
    api(world.app)(found.owner, 'POST', `/api/v1/case/transaction/${found.caseId}/new`, {
      paymentMethod: 'pix',
    }),
  );
  return objOf<{ id: number }>(created).id;
}

/** A service of the guide planning, unpaid and in no transaction. */
async function insertService(db: Db, caseId: number): Promise<number> {
  const productId = await productIdByCode(db, 'PLAN-GUIDE');
  const [row] = await db
    .insert(caseServices)
    .values({
      caseId,
      productId,
      productCategoryId: 3,
      quantity: 1,
      dataVersion: 3,
      data: emptyServiceDataV3(),
    })
    .returning({ id: caseServices.id });
  return row!.id;
}

let serial = 0;
/** A name no other record of the run has. */
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(serial += 1)}`;

async function insertInvitation(
  db: Db,
  values: { instructorId: number; email: string; accepted?: { by: number } },
): Promise<{ id: number; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(invitations)
    .values({
      instructorId: values.instructorId,
      email: values.email,
      language: 'en',
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + 7 * 24 * 3600_000),
      ...(values.accepted ? { acceptedAt: new Date(), acceptedBy: values.accepted.by } : {}),
    })
    .returning({ id: invitations.id });
  return { id: row!.id, token };
}

async function copyProduct(db: Db, code: string, deleted: boolean): Promise<number> {
  const [source] = await db.select().from(products).where(eq(products.code, code));
  const { id: _id, ...rest } = source!;
  const [row] = await db
    .insert(products)
    .values({ ...rest, code: unique('MATRIX-'), deletedAt: deleted ? new Date() : null })
    .returning({ id: products.id });
  return row!.id;
}

async function insertCoupon(
  db: Db,
  values: Partial<typeof coupons.$inferInsert> = {},
): Promise<{ id: number; code: string }> {
  const code = unique('MATRIX');
  const [row] = await db
    .insert(coupons)
    .values({ code, coupomType: 1, value: 10, ...values })
    .returning({ id: coupons.id });
  return { id: row!.id, code };
}

async function linkPartner(db: Db, clinicId: number, partnerId: number): Promise<number> {
  const [row] = await db
    .insert(clinicPartners)
    .values({ clinicId, partnerId })
    .returning({ id: clinicPartners.id });
  return row!.id;
}

/**
 * A verified account with these roles that nobody relates to, written directly (no password
 * hashing, no sign-in: the calls only need its id). Its password is the demo doctor's.
 */
export async function insertUser(db: Db, roles: string[]): Promise<number> {
  const [demo] = await db.select().from(users).where(eq(users.nickName, 'doctor'));
  const nick = unique('matrix');
  const [row] = await db
    .insert(users)
    .values({
      email: `${nick}@matrix.test`,
      nickName: nick,
      fname: 'Matrix',
      lname: roles.join(' '),
      displayName: `Matrix ${nick}`,
      passwordHash: demo!.passwordHash,
      roles,
      verifiedAt: new Date(),
      dataInfo: demo!.dataInfo,
      dataAddress: demo!.dataAddress,
      dataCapabilities: { ...demo!.dataCapabilities, instructorId: null },
    })
    .returning({ id: users.id });
  return row!.id;
}

const someoneElse = (world: World) => insertUser(world.db, ['doctor']);

/** A file in the local store, confirmed on the doctor's case: its id and a download link. */
async function storedFile(world: World): Promise<{ attachmentId: number; link: string }> {
  const { attachment, url } = await uploadFile(
    world.app,
    world.sessions.doctor,
    world.families.doctor.caseId,
    'photoProtocol.generic',
    'photo.png',
    await samplePng(8),
  );
  return { attachmentId: attachment.id, link: url };
}

/** A presigned upload (local store) for a new file of the doctor's case, and the file. */
async function uploadPolicy(world: World): Promise<{ upload: Announced['upload']; bytes: Buffer }> {
  const bytes = await samplePng(8);
  const created = await must(
    announce(world.app, world.sessions.doctor, world.families.doctor.caseId, {
      filename: 'photo.png',
      filesize: bytes.length,
      attachment_name: 'photoProtocol.generic',
    }),
  );
  return { upload: objOf<Announced>(created).upload, bytes };
}

/** A part URL (local store) of a new resumable upload on the doctor's case, and the part. */
async function resumablePart(
  world: World,
): Promise<{ partUrl: string; bytes: Buffer; attachmentId: number }> {
  const bytes = Buffer.alloc(2000, 1);
  const doctor = world.sessions.doctor;
  const created = await must(
    api(world.app)(doctor, 'POST', `/api/v1/attachment/resumable/${world.families.doctor.caseId}`, {
      filename: 'scan.stl',
      filesize: bytes.length,
      attachment_name: 'exams.upperJawStl',
    }),
  );
  const { attachment } = objOf<{ attachment: { id: number } }>(created);
  const urls = await must(
    api(world.app)(doctor, 'POST', `/api/v1/attachment/resumable/${attachment.id}/partUrls`, {
      partNumbers: [1],
    }),
  );
  const { parts } = objOf<{ parts: { url: string }[] }>(urls);
  return { partUrl: parts[0]!.url, bytes, attachmentId: attachment.id };
}

/** A complete, valid form of a published single product with this code. */
export function productForm(code: string) {
  const text = (name: string, price: number) => ({
    name,
    description: `${name} of the matrix`,
    price,
    discount: 0,
    publish: true,
  });
  return {
    productType: 1,
    productCategory: 8,
    code,
    innerProducts: [],
    manufactureTime: 2,
    productKind: 2,
    qtdOption: 1,
    qtdMax: 1,
    alignment: false,
    favorite: false,
    kindOfManufacture: 1,
    enableKit: false,
    enableSleeve: false,
    mockup: false,
    shipping: false,
    clientPrints: false,
    uploadFiles: true,
    downloadFiles: false,
    texts: {
      ptBR: text('Guia da matriz', 10000),
      en: text('Matrix guide', 2000),
      es: text('Guía de la matriz', 2000),
    },
  };
}

export const productCodeOf = async (db: Db, productId: number) =>
  (await db.select({ code: products.code }).from(products).where(eq(products.id, productId)))[0]
    ?.code ?? 'MISSING';

/** A published product with an image set through the admin's upload: its id and image name. */
async function productWithImage(world: World): Promise<{ productId: number; name: string }> {
  const { app, db, sessions } = world;
  const call = api(app);
  const productId = await copyProduct(db, 'PLAN-GUIDE', false);
  const png = await samplePng(32);
  const created = objOf<Announced>(
    await must(
      call(sessions.admin, 'POST', '/api/v1/attachment/create/temp', {
        filename: 'product.png',
        filesize: png.length,
        attachment_name: 'productThumbnail',
      }),
    ),
  );
  await must(postLocal(app, created.upload, png));
  await must(
    call(sessions.admin, 'GET', `/api/v1/attachment/uploadedSuccess/${created.attachment.id}`),
  );
  const saved = objOf<{ image: string | null }>(
    await must(
      call(sessions.admin, 'POST', `/api/v1/products/set/${productId}`, {
        ...productForm(await productCodeOf(db, productId)),
        imageUploadId: created.attachment.id,
      }),
    ),
  );
  return { productId, name: String(saved.image).split('/').pop()! };
}

/** A multipart avatar upload of a PNG. */
export const avatarForm = async () => multipartBody({}, await samplePng(16), 'me.png');

/**
 * Every kind of record the matrix names in its `record` column, with what own, another's and
 * none are for each (docs/permissions.md holds the same legend).
 */
export const RECORD_KINDS: Record<string, RecordKind> = {
  case: inCase(
    async (_world, found) => ({ caseId: found.caseId }),
    () => ({ caseId: MISSING_ID }),
    { freshCase: true },
  ),
  service: inCase(
    async (world, found, _family, _caller, fresh) => ({
      caseId: found.caseId,
      serviceId: fresh ? await insertService(world.db, found.caseId) : found.serviceId,
    }),
    (found) => ({ caseId: found.caseId, serviceId: MISSING_ID }),
  ),
  'case user': inCase(
    async (world, found) => {
      await must(
        api(world.app)(world.sessions.supervisor, 'POST', `/api/v1/case/${found.caseId}/users`, {
          userId: world.memberPartnerId,
          triggerNotification: false,
        }),
      );
      return { caseId: found.caseId, userId: world.memberPartnerId };
    },
    (found) => ({ caseId: found.caseId, userId: MISSING_ID }),
  ),
  review: inCase(
    async (world, found) => {
      // A text of its own finds this review among those other cells open at the same time.
      const description = unique('Please check the implant system ');
      const detail = objOf<{ reviews: { id: number; description: string }[] }>(
        await must(
          api(world.app)(world.sessions.supervisor, 'POST', `/api/v1/case/${found.caseId}/review`, {
            description,
          }),
        ),
      );
      return {
        caseId: found.caseId,
        reviewId: detail.reviews.find((review) => review.description === description)!.id,
      };
    },
    (found) => ({ caseId: found.caseId, reviewId: MISSING_ID }),
  ),
  'chat message': inCase(
    async (world, found, family, caller) => {
      const author = family === 'stranger' ? world.stranger : sessionOf(world, caller);
      const message = objOf<{ id: number }>(
        await must(
          api(world.app)(author, 'POST', `/api/v1/case/${found.caseId}/chat/3`, {
            text: 'A message of the matrix',
          }),
        ),
      );
      return { caseId: found.caseId, messageId: message.id };
    },
    (found) => ({ caseId: found.caseId, messageId: MISSING_ID }),
  ),
  'client file': inCase(
    async (world, found) => ({
      attachmentId: await insertPublicAttachment(world.db, found.caseId, found.owner.profile.id, {
        bucketName: 'photoProtocol',
      }),
    }),
    () => ({ attachmentId: MISSING_ID }),
  ),
  'approval record': inCase(
    async (world, found) => insertApprovalRecord(world, found.caseId),
    () => ({ approvalId: MISSING_ID }),
  ),
  // A code is public: own = a stored code, another = a well-formed code no record has.
  'certificate code': global(
    async (world) => insertApprovalRecord(world, world.families.doctor.caseId),
    async () => ({ code: '0000-0000-0000-0000-0000-0000' }),
    { code: 'not-a-code' },
  ),
  'private planning file': planningFile('private'),
  'published planning file': planningFile('publish'),
  'planning file with a change request': planningFile('request_change'),
  pin: inCase(
    async (world, found) => {
      const attachmentId = await insertAttachment(world.db, {
        caseId: found.caseId,
        userId: world.sessions.supervisor.profile.id,
        status: 'publish',
      });
      const pin = objOf<{ id: number }>(
        await must(
          api(world.app)(found.owner, 'POST', `/api/v1/attachment/${attachmentId}/pins`, PIN_BODY),
        ),
      );
      return { pinId: pin.id };
    },
    () => ({ pinId: MISSING_ID }),
  ),
  upload: inCase(
    async (world, found, family, caller) => ({
      attachmentId: await insertAttachment(world.db, {
        caseId: found.caseId,
        userId: (family === 'stranger' ? world.stranger : sessionOf(world, caller)).profile.id,
        bucketName: 'photoProtocol',
        status: 'uploading',
        filename: 'photo.jpg',
        mimetype: 'image/jpeg',
        uploadedAt: null,
      }),
    }),
    () => ({ attachmentId: MISSING_ID }),
  ),
  transaction: inCase(
    async (world, found, _family, _caller, fresh) => ({
      transactionId: fresh ? await newTransaction(world, found) : found.transactionId,
    }),
    () => ({ transactionId: MISSING_ID }),
  ),
  user: {
    own: async (world, caller) => ({ userId: sessionOf(world, caller).profile.id }),
    another: (() => {
      let shared: Promise<number> | undefined;
      return async (world: World, _caller: MatrixCaller, fresh: boolean) => ({
        userId: await (fresh ? someoneElse(world) : (shared ??= someoneElse(world))),
      });
    })(),
    none: async () => ({ userId: MISSING_ID }),
  },
  product: global(
    async (world, fresh) => ({
      productId: fresh
        ? await copyProduct(world.db, 'PLAN-GUIDE', false)
        : await productIdByCode(world.db, 'PLAN-GUIDE'),
    }),
    async (world) => ({ productId: await copyProduct(world.db, 'PLAN-GUIDE', true) }),
    { productId: MISSING_ID },
  ),
  category: global(
    async () => ({ categoryId: 3 }),
    async (world) => {
      const [row] = await world.db
        .insert(productCategories)
        .values({
          id: 100 + (serial += 1),
          names: { ptBR: 'Inativa', en: 'Inactive', es: 'Inactiva' },
          active: false,
        })
        .returning({ id: productCategories.id });
      return { categoryId: row!.id };
    },
    { categoryId: MISSING_ID },
  ),
  coupon: global(
    async (world) => ({ couponId: (await insertCoupon(world.db)).id }),
    async (world) => ({ couponId: (await insertCoupon(world.db, { deletedAt: new Date() })).id }),
    { couponId: MISSING_ID },
  ),
  'coupon code': {
    own: async (world, caller) => ({
      code: (await insertCoupon(world.db, { bind2User: sessionOf(world, caller).profile.id })).code,
    }),
    another: async (world) => ({
      code: (await insertCoupon(world.db, { bind2User: world.stranger.profile.id })).code,
    }),
    none: async () => ({ code: 'NO-SUCH-COUPON' }),
  },
  'partner link': global(
    async (world) => ({
      linkId: await linkPartner(
        world.db,
        world.sessions.clinic.profile.id,
        await insertUser(world.db, ['partner']),
      ),
    }),
    async (world) => ({
      linkId: await linkPartner(
        world.db,
        await insertUser(world.db, ['clinic']),
        await insertUser(world.db, ['partner']),
      ),
    }),
    { linkId: MISSING_ID },
  ),
  student: global(
    async (world) => ({ studentId: world.sessions.doctor.profile.id }),
    async (world) => ({ studentId: world.stranger.profile.id }),
    { studentId: MISSING_ID },
  ),
  invitation: {
    own: async (world, caller) => ({
      invitationId: (
        await insertInvitation(world.db, {
          instructorId: (caller === 'admin' ? world.sessions.admin : world.sessions.instructor)
            .profile.id,
          email: `${unique('invited')}@matrix.test`,
        })
      ).id,
    }),
    another: async (world) => ({
      invitationId: (
        await insertInvitation(world.db, {
          instructorId: world.otherInstructorId,
          email: `${unique('invited')}@matrix.test`,
        })
      ).id,
    }),
    none: async () => ({ invitationId: MISSING_ID }),
  },
  'invitation to me': {
    own: async (world, caller) => ({
      invitationId: (
        await insertInvitation(world.db, {
          instructorId: world.sessions.instructor.profile.id,
          email: emailOf(sessionOf(world, caller)),
        })
      ).id,
    }),
    another: async (world) => ({
      invitationId: (
        await insertInvitation(world.db, {
          instructorId: world.sessions.instructor.profile.id,
          email: emailOf(world.stranger),
        })
      ).id,
    }),
    none: async () => ({ invitationId: MISSING_ID }),
  },
  'invitation link': {
    own: async (world) => ({
      token: (
        await insertInvitation(world.db, {
          instructorId: world.sessions.instructor.profile.id,
          email: `${unique('invited')}@matrix.test`,
        })
      ).token,
    }),
    another: async (world) => ({
      token: (
        await insertInvitation(world.db, {
          instructorId: world.sessions.instructor.profile.id,
          email: emailOf(world.stranger),
          accepted: { by: world.stranger.profile.id },
        })
      ).token,
    }),
    none: async () => ({ token: randomBytes(32).toString('base64url') }),
  },
  avatar: (() => {
    let current: Promise<{ userId: number; name: string }> | undefined;
    const upload = async (world: World) => {
      const form = await avatarForm();
      const response = await must(
        world.app.inject({
          method: 'POST',
          url: '/api/v1/profile/avatar',
          headers: { ...bearer(world.stranger), ...form.headers },
          payload: form.payload,
        }),
      );
      const url = objOf<{ avatar: string }>(response).avatar;
      const [userId, name] = url.split('/').slice(-2);
      return { userId: Number(userId), name: name! };
    };
    return {
      own: async (world) => (current ??= upload(world)),
      another: async (world) => ({ ...(await (current ??= upload(world))), name: 'a'.repeat(32) }),
      none: async () => ({ userId: MISSING_ID, name: 'a'.repeat(32) }),
    } satisfies RecordKind;
  })(),
  'product image': (() => {
    let current: Promise<{ productId: number; name: string }> | undefined;
    return {
      own: async (world) => (current ??= productWithImage(world)),
      another: async (world) => ({
        ...(await (current ??= productWithImage(world))),
        name: 'a'.repeat(32),
      }),
      none: async () => ({ productId: MISSING_ID, name: 'a'.repeat(32) }),
    } satisfies RecordKind;
  })(),
  session: {
    own: async (world, caller) => ({
      refreshToken: (await login(world.app, nickNameOf(sessionOf(world, caller)))).refreshToken,
    }),
    another: async (world) => ({
      refreshToken: (await login(world.app, nickNameOf(world.stranger))).refreshToken,
    }),
    none: async () => ({ refreshToken: randomBytes(32).toString('base64url') }),
  },
  'upload policy': {
    own: async (world) => uploadPolicy(world),
    another: async (world) => {
      const { upload, bytes } = await uploadPolicy(world);
      // Signed for one key, posted for another: the signature no longer matches.
      const fields = { ...upload.fields, key: `cases/${MISSING_ID}/another` };
      return { upload: { ...upload, fields }, bytes };
    },
    none: async (world) => {
      const { upload, bytes } = await uploadPolicy(world);
      return {
        upload: { ...upload, fields: { ...upload.fields, 'x-dentflow-signature': 'forged' } },
        bytes,
      };
    },
  },
  'part URL': {
    own: async (world) => {
      const { partUrl, bytes } = await resumablePart(world);
      return { partUrl, bytes };
    },
    another: async (world) => {
      // The part URL of an upload cancelled since: no upload takes it any more.
      const part = await resumablePart(world);
      await must(
        api(world.app)(
          world.sessions.doctor,
          'DELETE',
          `/api/v1/attachment/resumable/${part.attachmentId}`,
        ),
      );
      return { partUrl: part.partUrl, bytes: part.bytes };
    },
    none: async (world) => {
      const { partUrl, bytes } = await resumablePart(world);
      return { partUrl: `${partUrl.split('.')[0]}.forged`, bytes };
    },
  },
  'download link': {
    own: async (world) => ({ link: (await storedFile(world)).link }),
    another: async (world) => {
      // A link of a file that was deleted since: the object is gone.
      const { attachmentId, link } = await storedFile(world);
      await must(
        api(world.app)(
          world.sessions.doctor,
          'DELETE',
          `/api/v1/attachment/${attachmentId}/delete`,
        ),
      );
      return { link };
    },
    none: async () => ({ link: '/api/v1/storage/download?t=forged' }),
  },
};

/** Ids of the record a call acts on; NO_RECORD calls get none. */
export async function recordFor(
  world: World,
  kind: string,
  which: RecordCase,
  caller: MatrixCaller,
  fresh: boolean,
): Promise<RecordIds> {
  if (kind === NO_RECORD) return {};
  const found = RECORD_KINDS[kind];
  if (!found) throw new Error(`no record kind "${kind}" in authorization-fixtures.ts`);
  if (which === 'none') return found.none(world, caller);
  return which === 'own' ? found.own(world, caller, fresh) : found.another(world, caller, fresh);
}
