import { asc, eq, sql } from 'drizzle-orm';
import {
  type CaseMembership,
  type CaseVisibilityFacts,
  type DeliveryOrder,
  type Language,
  type AttachmentSlot,
  type ServiceManufactureFacts,
} from '@dentflow/domain';
import type { Db, DbOrTx } from '../../db/client';
import { prepareSelect, preparedStatement } from '../../db/prepared-statement';
import {
  caseEvents,
  caseServices,
  caseUsers,
  cases,
  patients,
  products,
  transactions,
  users,
} from '../../db/schema';
import { ownerInstructorIdSql } from './case-visibility.repository';
import {
  productNameSql,
  type CaseEventRow,
  type CaseRow,
  type CaseServiceRow,
  type PatientRow,
} from './cases.repository';

/**
 * The reads of one case: the case view's single statement (`prepareCaseDetail`) and the smaller
 * reads the changes of a case make inside their transaction.
 */

export async function findCase(db: DbOrTx, caseId: number): Promise<CaseRow | undefined> {
  const [row] = await db.select().from(cases).where(eq(cases.id, caseId)).limit(1);
  return row;
}

/**
 * The attachments case check (THE meeting point with the files feature), in a select from
 * `cases`: a file of the case that is not deleted, is public and was uploaded by the client side
 * (the owner).
 */
const clientFileExistsSql = sql<boolean>`exists (
  select 1 from attachments a
   where a.case_id = "cases"."id" and a.user_id = "cases"."owner_id"
     and a.status = 'public' and a.deleted_at is null)`;

/** The slot (bucket and kind) of a file: what the required-slots check compares. */
export interface FileSlot {
  bucketName: AttachmentSlot['bucketName'];
  attachmentType: string;
}

/** The slots of the case's public, non-deleted files (the required-slots check). */
const publicFileSlotsSql = sql<FileSlot[]>`coalesce((
  select json_agg(json_build_object('bucketName', a.bucket_name,
                                    'attachmentType', a.attachment_type))
    from attachments a
   where a.case_id = "cases"."id" and a.status = 'public' and a.deleted_at is null), '[]'::json)`;

/** A service as the case read returns it: the row's fields the case view shows, with its product. */
export interface CaseDetailService {
  id: number;
  productId: number;
  serviceId: number | null;
  productCategoryId: number;
  productName: string;
  productKind: number;
  qtdOption: number;
  qtdMax: number;
  manufactureTime: number;
  quantity: number;
  printableProduct: boolean;
  planner: { id: number; displayName: string } | null;
  approveRequestAt: Date | null;
  approveAt: Date | null;
  paidAt: Date | null;
  dataVersion: number;
  data: unknown;
  transactionStatus: string | null;
  paymentDeferredAt: Date | null;
  /** The product's options and the checkout's choice: what `serviceManufacture` reads. */
  production: Pick<
    ServiceManufactureFacts,
    'enableKit' | 'enableSleeve' | 'manufactureData' | 'sleeveManufacturerName'
  >;
}

/** Everything the case view shows about one case, and the facts `caseRelation` needs. */
export interface CaseDetailRow {
  row: CaseRow;
  owner: { id: number; displayName: string };
  facts: CaseVisibilityFacts;
  patient: Pick<PatientRow, 'fname' | 'lname' | 'birthDate' | 'gender' | 'note'> | null;
  services: CaseDetailService[];
  members: { userId: number; displayName: string; roles: string[]; triggerNotification: boolean }[];
  reviews: {
    id: number;
    reasonId: number | null;
    description: string;
    createdAt: Date;
    createdBy: { id: number; displayName: string } | null;
    solvedAt: Date | null;
    solvedBy: { id: number; displayName: string } | null;
  }[];
  hasClientAttachment: boolean;
  publicFiles: FileSlot[];
  transactionStatuses: string[];
  /** The order that chose the delivery (`deliveryOrderSql`), or null. */
  deliveryOrder: DeliveryOrder | null;
  /** Who recorded the dispatch. */
  dispatchRecordedBy: { id: number; displayName: string } | null;
}

/** A row as `json_build_object` returns it: timestamps become ISO strings. */
type Json<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};
const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

/** `{id, displayName}` of a user id column inside the JSON of a sub-select, or JSON null. */
const userRefJson = (column: string) =>
  sql.raw(
    `(select json_build_object('id', ref.id, 'displayName', ref.display_name) from users ref where ref.id = ${column})`,
  );

/**
 * The order that chose the case's delivery, in a select from `cases`: its first transaction with
 * a shipment, a live one (not cancelled or returned) before any other, so a refunded first order
 * still names where the parcel went when nothing else ships.
 */
const deliveryOrderSql = sql<DeliveryOrder | null>`(
  select json_build_object('payerId', t.payer_id, 'paymentMethod', t.payment_method,
                           'currency', t.currency, 'priceShipping', t.price_shipping,
                           'priceTotal', t.price_total, 'shipment', t.shipment)
    from transactions t
   where t.case_id = "cases"."id" and t.shipment is not null
   order by t.payment_status in ('cancelled', 'returned'), t.id
   limit 1)`;

/** The delivery order of one case (the dispatch reads its shipment type). */
export async function findDeliveryOrder(db: DbOrTx, caseId: number): Promise<DeliveryOrder | null> {
  const [row] = await db
    .select({ order: deliveryOrderSql })
    .from(cases)
    .where(eq(cases.id, caseId))
    .limit(1);
  return row?.order ?? null;
}

/**
 * The case read (`case/{id}/get` and the answer of every change) as ONE prepared statement: the
 * row with, as sub-selects, its patient, services with their products and planners, members,
 * reviews, the attachments and transactions checks' inputs and the visibility facts. It replaced
 * eleven statements in four round trips (docs/performance.md). Prepared per database handle:
 * drizzle builds it once and each pooled connection plans it once.
 */
export function prepareCaseDetail(db: Db) {
  const language = sql`${sql.placeholder('language')}::text`;
  const query = prepareSelect(
    db
      .select({
        row: cases,
        ownerName: sql<string>`(select u.display_name from users u where u.id = "cases"."owner_id")`,
        ownerInstructorId: ownerInstructorIdSql,
        patient: sql<Json<NonNullable<CaseDetailRow['patient']>> | null>`(
        select json_build_object('fname', p.fname, 'lname', p.lname, 'birthDate', p.birth_date,
                                 'gender', p.gender, 'note', p.note)
          from patients p where p.id = "cases"."patient_id")`,
        services: sql<Json<CaseDetailService>[]>`coalesce((
        select json_agg(json_build_object(
                 'id', s.id, 'productId', s.product_id, 'serviceId', s.service_id,
                 'productCategoryId', s.product_category_id,
                 'productName', coalesce(nullif(pr.texts -> ${language} ->> 'name', ''),
                                         pr.texts -> 'en' ->> 'name', ''),
                 'productKind', pr.product_kind, 'qtdOption', pr.qtd_option,
                 'qtdMax', pr.qtd_max, 'manufactureTime', pr.manufacture_time,
                 'quantity', s.quantity, 'printableProduct', s.printable_product,
                 'planner', ${userRefJson('s.planner_id')},
                 'approveRequestAt', s.approve_request_at, 'approveAt', s.approve_at,
                 'paidAt', s.paid_at, 'dataVersion', s.data_version, 'data', s.data,
                 'transactionStatus',
                   (select t.payment_status from transactions t where t.id = s.transaction_id),
                 'paymentDeferredAt', s.payment_deferred_at,
                 'production', json_build_object(
                   'enableKit', pr.enable_kit, 'enableSleeve', pr.enable_sleeve,
                   'manufactureData', s.manufacture_data,
                   'sleeveManufacturerName', (
                     select sl.sleeve_manufacture from sleeves sl
                      where sl.id = (s.manufacture_data ->> 'sleevesManufacture')::int)))
               order by s.id)
          from case_services s join products pr on pr.id = s.product_id
         where s.case_id = "cases"."id"), '[]'::json)`,
        members: sql<(CaseDetailRow['members'][number] & CaseMembership)[]>`coalesce((
        select json_agg(json_build_object('userId', cu.user_id, 'displayName', u.display_name,
                                          'roles', u.roles,
                                          'triggerNotification', cu.trigger_notification,
                                          'viaRole', cu.via_role)
               order by cu.id)
          from case_users cu join users u on u.id = cu.user_id
         where cu.case_id = "cases"."id"), '[]'::json)`,
        reviews: sql<Json<CaseDetailRow['reviews'][number]>[]>`coalesce((
        select json_agg(json_build_object('id', r.id, 'reasonId', r.reason_id,
                                          'description', r.description,
                                          'createdAt', r.created_at,
                                          'createdBy', ${userRefJson('r.created_by')},
                                          'solvedAt', r.solved_at,
                                          'solvedBy', ${userRefJson('r.solved_by')})
               order by r.id)
          from case_reviews r where r.case_id = "cases"."id"), '[]'::json)`,
        hasClientAttachment: clientFileExistsSql,
        publicFiles: publicFileSlotsSql,
        transactionStatuses: sql<
          string[]
        >`array(select t.payment_status from transactions t where t.case_id = "cases"."id")`,
        deliveryOrder: deliveryOrderSql,
        dispatchRecordedBy: sql<CaseDetailRow['dispatchRecordedBy']>`${userRefJson(
          `("cases"."dispatch" ->> 'recordedBy')::int`,
        )}`,
      })
      .from(cases)
      .where(eq(cases.id, sql.placeholder('caseId')))
      .limit(1),
    'case_detail',
  );

  return async (caseId: number, language: Language): Promise<CaseDetailRow | undefined> => {
    const [found] = await query.execute({ caseId, language });
    if (!found) return undefined;
    const services: CaseDetailService[] = found.services.map((s) => ({
      ...s,
      approveRequestAt: dateOrNull(s.approveRequestAt),
      approveAt: dateOrNull(s.approveAt),
      paidAt: dateOrNull(s.paidAt),
      paymentDeferredAt: dateOrNull(s.paymentDeferredAt),
    }));
    const members = found.members.map(({ viaRole: _viaRole, ...member }) => member);
    return {
      row: found.row,
      owner: { id: found.row.ownerId, displayName: found.ownerName ?? '' },
      facts: {
        ownerId: found.row.ownerId,
        caseStatus: found.row.caseStatus,
        hasPrintable: found.row.hasPrintable,
        members: found.members.map(({ userId, viaRole }) => ({ userId, viaRole })),
        plannerIds: [...new Set(services.flatMap((s) => (s.planner ? [s.planner.id] : [])))],
        ownerInstructorId:
          found.ownerInstructorId === null ? null : Number(found.ownerInstructorId),
      },
      patient: found.patient,
      services,
      members,
      reviews: found.reviews.map((r) => ({
        ...r,
        createdAt: new Date(r.createdAt),
        solvedAt: dateOrNull(r.solvedAt),
      })),
      hasClientAttachment: found.hasClientAttachment,
      publicFiles: found.publicFiles,
      transactionStatuses: found.transactionStatuses,
      deliveryOrder: found.deliveryOrder,
      dispatchRecordedBy: found.dispatchRecordedBy,
    };
  };
}

export async function findPatient(db: DbOrTx, id: number): Promise<PatientRow | undefined> {
  const [row] = await db.select().from(patients).where(eq(patients.id, id)).limit(1);
  return row;
}

export interface CaseServiceWithProduct extends CaseServiceRow {
  productName: string;
  productKind: number;
  qtdOption: number;
  qtdMax: number;
  manufactureTime: number;
  /** The status of the transaction the service belongs to, or null without one. */
  transactionStatus: string | null;
}

/** The case's services with their products, in order: built once per connection (every move reads it). */
const caseServicesStatement = preparedStatement('case_services', (db) =>
  db
    .select({
      service: caseServices,
      productName: productNameSql(sql.placeholder('language')),
      productKind: products.productKind,
      qtdOption: products.qtdOption,
      qtdMax: products.qtdMax,
      manufactureTime: products.manufactureTime,
      transactionStatus: transactions.paymentStatus,
    })
    .from(caseServices)
    .innerJoin(products, eq(products.id, caseServices.productId))
    .leftJoin(transactions, eq(transactions.id, caseServices.transactionId))
    .where(eq(caseServices.caseId, sql.placeholder('caseId')))
    .orderBy(asc(caseServices.id)),
);

export async function listCaseServices(
  db: DbOrTx,
  caseId: number,
  language: Language,
): Promise<CaseServiceWithProduct[]> {
  const rows = await caseServicesStatement(db, { caseId, language });
  return rows.map(({ service, ...product }) => ({ ...service, ...product }));
}

export async function listCaseMembers(db: DbOrTx, caseId: number) {
  return db
    .select({
      userId: caseUsers.userId,
      displayName: users.displayName,
      roles: users.roles,
      triggerNotification: caseUsers.triggerNotification,
    })
    .from(caseUsers)
    .innerJoin(users, eq(users.id, caseUsers.userId))
    .where(eq(caseUsers.caseId, caseId))
    .orderBy(asc(caseUsers.id));
}

export async function listCaseEvents(db: DbOrTx, caseId: number): Promise<CaseEventRow[]> {
  return db
    .select()
    .from(caseEvents)
    .where(eq(caseEvents.caseId, caseId))
    .orderBy(asc(caseEvents.at), asc(caseEvents.id));
}

/** The attachments case check's inputs of one case (see `clientFileExistsSql`). */
export async function findCaseFileFacts(
  db: DbOrTx,
  caseId: number,
): Promise<{ hasClientFile: boolean; publicFiles: FileSlot[] }> {
  const [row] = await db
    .select({ hasClientFile: clientFileExistsSql, publicFiles: publicFileSlotsSql })
    .from(cases)
    .where(eq(cases.id, caseId));
  return { hasClientFile: row?.hasClientFile === true, publicFiles: row?.publicFiles ?? [] };
}
