import {
  profileCurrency,
  PRODUCT_TYPES,
  DEADLINE_NEAR_MS,
  DEADLINE_SETTLED_STATUSES,
  DISPATCH_KINDS,
  REVIEW_REASONS,
  allCaseChecksPass,
  failingCaseChecks,
  priceLanguageFor,
  productPrice,
  availableCaseActions,
  caseChecks,
  canArchive,
  caseEventDetailFor,
  caseDeadline,
  caseDeliveryFor,
  caseListGroup,
  caseProductionActions,
  dispatchBodyProblems,
  dispatchKindFor,
  dispatchRefusal,
  emptyServiceDataV3,
  foldText,
  isArchived,
  hasLiveTransaction,
  isLiveTransactionStatus,
  isManufacturingKind,
  isProductOrderable,
  isOneOf,
  isOldServiceDataLayout,
  isPendingApproval,
  isServiceCovered,
  onlyPaymentFails,
  servicePaymentState,
  isPlanner,
  isServiceDataValid,
  isServiceQuantityValid,
  mayAddCaseUser,
  mayChangeCaseCurrency,
  mayChangeCurrencyOfCase,
  mayRemoveCaseUser,
  mayAttemptCaseAction,
  mayDispatchCase,
  mayEditCaseAddress,
  mayOnCase,
  maySolveReview,
  membershipRoleOfAddition,
  nextCaseStatus,
  serviceDataV1Schema,
  serviceDataV3Schema,
  serviceManufacture,
  serviceQuantityRange,
  unarchive,
  type AddServiceBody,
  type CaseCounts,
  type CaseDetail,
  type CaseDispatchBody,
  type CaseProductionFacts,
  type CaseEvent,
  type CaseListFilter,
  type CaseMoveBody,
  type CaseOperation,
  type CasePage,
  type CaseRecordFacts,
  type CasePreview,
  type CaseSetBody,
  type CaseViewer,
  type Currency,
  type DeferredCasePayment,
  type Language,
  type NewCaseBody,
  type ServiceDataBody,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, validationError, zodIssueFields } from '../../http/app-error';
import type { AuthContext } from '../../http/permissions';
import { accountOfUser } from '../../security/password-checks';
import { isPartnerLinkedToClinic } from '../partners';
import { caseAccessOf, loadCaseAccess, type CaseAccess } from './case-access.service';
import { notifyOfCaseEvent, publishedDetail } from './case-activity';
import { auditCaseStatus, auditPaymentOverride } from './case-status-audit';
import {
  caseHasPrintableService,
  countCasesByFilter,
  deleteCaseService,
  deleteCaseUser,
  ensureCaseUser,
  findCase,
  findCasesWithDeadlineBefore,
  findCaseVisibilityFacts,
  findOpenCaseReview,
  findDeliveryOrder,
  findPatient,
  findProduct,
  findProductsByIds,
  findTransactionTotals,
  findUserForCase,
  findUsersByIds,
  hasOpenReview,
  deferServicesPayment,
  findCaseFileFacts,
  insertCase,
  insertCaseEvent,
  insertCaseReview,
  insertCaseServices,
  insertPatient,
  listCaseTransactionPayers,
  listCaseTransactionStatuses,
  listServicesWithoutOrder,
  listDeferredUnpaidServices,
  listCaseEvents,
  listCaseMembers,
  listCasePage,
  listCaseServices,
  prepareCaseDetail,
  searchArchivedCases,
  setCaseDispatch,
  solveCaseReview,
  updateCase,
  updateCaseService,
  updatePatient,
  upsertCaseUser,
  type CasePreviewRow,
  type CaseRow,
  type CaseServiceRow,
  type CaseServiceWithProduct,
  type FileSlot,
  type ProductRow,
} from './cases.repository';
import { isoOrNull } from '../../http/envelope';

type Caller = Pick<AuthContext, 'userId' | 'roles' | 'ip'>;
const viewerOf = (caller: Caller): CaseViewer => ({ userId: caller.userId, roles: caller.roles });

/** A case change to record (history row in the transaction) and publish (after commit). */
interface EventDraft {
  action: string;
  fromStatus?: string | null;
  toStatus?: string | null;
  detail?: Record<string, unknown>;
}

// ───────────────────────── shared pieces (exported for checkout, payments) ─────────────────────────

/** A service row as the case checks read it: its transaction's status and the deferral. */
const paymentFactsOf = (service: {
  id: number;
  transactionStatus: string | null;
  paymentDeferredAt: Date | null;
}) => ({
  id: service.id,
  transactionStatus: service.transactionStatus,
  paymentDeferred: service.paymentDeferredAt !== null,
});

/** A service that may be made and whose approval was not requested yet. */
const isAwaitingApprovalRequest = (service: {
  id: number;
  approveRequestAt: Date | null;
  transactionStatus: string | null;
  paymentDeferredAt: Date | null;
}) => service.approveRequestAt === null && isServiceCovered(paymentFactsOf(service));

/** The domain's case checks from what the case read or a move's transaction found. */
function checksOf(input: {
  services: readonly (Pick<CaseServiceRow, 'dataVersion' | 'data' | 'productCategoryId'> & {
    id: number;
    transactionStatus: string | null;
    paymentDeferredAt: Date | null;
  })[];
  patient: { fname: string; lname: string } | null | undefined;
  hasClientFile: boolean;
  publicFiles: readonly FileSlot[];
}) {
  const { patient } = input;
  return caseChecks({
    services: input.services.map((service) => ({ ...service, ...paymentFactsOf(service) })),
    patient: patient ? { fname: patient.fname, lname: patient.lname } : null,
    hasClientFile: input.hasClientFile,
    publicFiles: input.publicFiles,
  });
}

/** The case checks inside a move's transaction. */
async function caseChecksOf(tx: DbOrTx, row: CaseRow, services: readonly CaseServiceWithProduct[]) {
  // One after another: a transaction is one connection, which runs one query at a time anyway.
  const patient = await findPatient(tx, row.patientId);
  return checksOf({ services, patient, ...(await findCaseFileFacts(tx, row.id)) });
}

/**
 * What deferred services would cost, for the override's record: the total of the transactions
 * that wait for them, and the list price of those without one (no discount is known for them).
 */
async function unpaidAmountOf(
  tx: DbOrTx,
  services: readonly CaseServiceWithProduct[],
  currency: Currency,
): Promise<number> {
  const waiting = services.filter((s) => isLiveTransactionStatus(s.transactionStatus));
  const transactionIds = [...new Set(waiting.map((s) => s.transactionId!))];
  const totals = await findTransactionTotals(tx, transactionIds);
  const loose = services.filter((s) => !waiting.includes(s));
  const productsById = new Map(
    (
      await findProductsByIds(
        tx,
        loose.map((s) => s.productId),
      )
    ).map((p) => [p.id, p]),
  );
  const language = priceLanguageFor(currency);
  const listed = loose.reduce((sum, s) => {
    const product = productsById.get(s.productId);
    return sum + (product ? productPrice(product, language) * s.quantity : 0);
  }, 0);
  return totals.reduce((sum, total) => sum + total, listed);
}

/**
 * Validation's effects (checkingout → execute): the deadline from now, and the review 'planner
 * not set' when no service has a planner. Shared by a supervisor's 'validate' and the automatic
 * move when a case is paid. Returns the detail for the history row.
 */
async function applyValidation(
  tx: DbOrTx,
  caseId: number,
  services: readonly CaseServiceWithProduct[],
  now: Date,
): Promise<Record<string, unknown>> {
  await updateCase(tx, caseId, {
    validatedAt: now,
    deadlineAt: caseDeadline(
      now,
      services.map((s) => s.manufactureTime),
    ),
  });
  if (services.some((s) => s.plannerId !== null)) return {};
  await insertCaseReview(tx, {
    caseId,
    reasonId: REVIEW_REASONS.plannerNotSet,
    description: '',
    createdAt: now,
  });
  return { review: 'plannerNotSet' };
}

/**
 * When a case in `checkingout` has every service paid or pre-paid and its other checks pass, it
 * moves to `execute` by itself. Every change that can make
 * a check pass calls this in its own transaction (a payment, a client file added or published,
 * the case's data saved); the caller publishes the returned history rows after commit.
 */
export async function advancePaidCase(
  tx: DbOrTx,
  caseId: number,
  actorId: number | null,
  now: Date,
): Promise<CaseEventMessage[]> {
  // Locked (a no-op when the caller holds it): two changes at once cannot both move the case.
  if (!(await findCaseVisibilityFacts(tx, caseId, { lock: true }))) return [];
  const row = (await findCase(tx, caseId))!;
  if (row.caseStatus !== 'checkingout' || row.caseArchived) return [];
  // Only a paid case moves by itself: one without a live transaction waits for a supervisor.
  const statuses = await listCaseTransactionStatuses(tx, caseId);
  if (!statuses.some((status) => status !== 'cancelled')) return [];
  const services = await listCaseServices(tx, caseId, 'en');
  if (services.length === 0) return [];
  if (!allCaseChecksPass(await caseChecksOf(tx, row, services))) return [];
  const detail = { ...(await applyValidation(tx, caseId, services, now)), automatic: true };
  await updateCase(tx, caseId, { caseStatus: 'execute', listGroup: caseListGroup('execute') });
  const messages = await recordEvents(
    tx,
    caseId,
    actorId === null ? null : { userId: actorId },
    [{ action: 'validate', fromStatus: 'checkingout', toStatus: 'execute', detail }],
    now,
  );
  await refreshCaseDerived(tx, caseId, now);
  return messages;
}

/**
 * A product is printed by the provider (printers see the case, the case has a print step) when it
 * is a manufacturing product the client does not print themselves (docs/decisions/011).
 */
export const isPrintableProduct = (product: Pick<ProductRow, 'productKind' | 'clientPrints'>) =>
  isManufacturingKind(product.productKind) && !product.clientPrints;

const isComboProduct = (product: Pick<ProductRow, 'productType'>) =>
  product.productType === PRODUCT_TYPES.combo;

/** What an order is for: drafts (not published in its languages) are refused. */
export interface OrderContext {
  language: Language;
  currency: Currency;
}

/**
 * Adds services for products to a case (the case view and, later, the shop checkout). Quantity by
 * the product's qtdOption (`serviceQuantityRange`); a combo adds its inner products, each with
 * `serviceId` = the combo's product id and the quantity clamped to its own range. The caller
 * holds the case row lock and calls `refreshCaseDerived` afterwards.
 */
export async function addServicesToCase(
  tx: DbOrTx,
  caseId: number,
  items: readonly { productId: number; quantity?: number | undefined }[],
  order: OrderContext,
  now: Date,
): Promise<CaseServiceRow[]> {
  const productAvailable = (product: ProductRow | undefined): product is ProductRow =>
    product !== undefined && isProductOrderable(product, order);
  const added: CaseServiceRow[] = [];
  for (const [index, item] of items.entries()) {
    const field = items.length > 1 ? `${index}.productId` : 'productId';
    const product = await findProduct(tx, item.productId);
    if (!productAvailable(product)) {
      throw new AppError(400, 'PRODUCT_UNAVAILABLE', { [field]: 'validation.invalid' });
    }
    const quantity = item.quantity ?? 1;
    if (!isServiceQuantityValid(product, quantity)) {
      const { max } = serviceQuantityRange(product);
      throw validationError({
        [items.length > 1 ? `${index}.quantity` : 'quantity']:
          quantity > max ? 'validation.max' : 'validation.min',
      });
    }
    let parts: { product: ProductRow; quantity: number; comboId: number | null }[];
    if (isComboProduct(product)) {
      const inner = await findProductsByIds(tx, product.innerProducts);
      const byId = new Map(inner.map((p) => [p.id, p]));
      parts = product.innerProducts.map((id) => {
        const part = byId.get(id);
        if (!productAvailable(part) || isComboProduct(part)) {
          throw new AppError(400, 'PRODUCT_UNAVAILABLE', { [field]: 'validation.invalid' });
        }
        return {
          product: part,
          quantity: Math.min(quantity, serviceQuantityRange(part).max),
          comboId: product.id,
        };
      });
    } else {
      parts = [{ product, quantity, comboId: null }];
    }
    added.push(
      ...(await insertCaseServices(
        tx,
        parts.map((part) => ({
          caseId,
          productId: part.product.id,
          serviceId: part.comboId,
          productCategoryId: part.product.productCategoryId,
          quantity: part.quantity,
          printableProduct: isPrintableProduct(part.product),
          dataVersion: 3,
          data: emptyServiceDataV3(),
          createdAt: now,
        })),
      )),
    );
  }
  return added;
}

/** The case's services that no live transaction pays (what the next order for it contains). */
export const servicesWithoutOrder = (tx: DbOrTx, caseId: number) =>
  listServicesWithoutOrder(tx, caseId);

/**
 * The supervisors' list of services let through unpaid and not paid since, grouped by case,
 * oldest deferral first.
 */
export async function deferredUnpaidServices(db: DbOrTx, language: Language) {
  const rows = await listDeferredUnpaidServices(db, language);
  const byCase = new Map<number, DeferredCasePayment>();
  for (const row of rows) {
    const entry = byCase.get(row.caseId) ?? {
      caseId: row.caseId,
      caseStatus: row.caseStatus as DeferredCasePayment['caseStatus'],
      caseCurrency: row.caseCurrency as Currency,
      patient: { fname: row.fname, lname: row.lname },
      owner: { id: row.ownerId, displayName: row.ownerName },
      deferredAt: row.deferredAt!.toISOString(),
      reason: row.reason ?? '',
      services: [],
    };
    entry.services.push({
      id: row.serviceId,
      productName: row.productName,
      quantity: row.quantity,
    });
    byCase.set(row.caseId, entry);
  }
  return [...byCase.values()];
}

/** Staff are told that a client ordered more for a case already in work. */
export async function openCaseUpgradedReview(tx: DbOrTx, caseId: number, at: Date) {
  await insertCaseReview(tx, {
    caseId,
    reasonId: REVIEW_REASONS.caseUpgraded,
    description: '',
    createdAt: at,
  });
}

/**
 * Keeps the case's derived columns true after a change (list group, folded patient name,
 * printable flag, open-review flag) and stamps `modifiedAt`.
 */
export async function refreshCaseDerived(tx: DbOrTx, caseId: number, now: Date): Promise<void> {
  const row = await findCase(tx, caseId);
  if (!row) return;
  const patient = await findPatient(tx, row.patientId);
  await updateCase(tx, caseId, {
    listGroup: caseListGroup(row.caseStatus),
    searchText: foldText(`${patient?.fname ?? ''} ${patient?.lname ?? ''}`),
    hasPrintable: await caseHasPrintableService(tx, caseId),
    caseReview: await hasOpenReview(tx, caseId),
    modifiedAt: now,
  });
}

/** The archive flag after the history actions that change it. */
const ARCHIVE_FLAG_OF: Partial<Record<string, boolean>> = { archived: true, unarchived: false };

/**
 * Writes the drafts as history rows with the notifications they raise, and returns what to
 * publish after commit (recipients in `detail.notified`, see `case-activity.ts`).
 */
async function recordEvents(
  tx: DbOrTx,
  caseId: number,
  actor: { userId: number; ip?: string | undefined } | null,
  drafts: readonly EventDraft[],
  at: Date,
): Promise<CaseEventMessage[]> {
  const messages: CaseEventMessage[] = [];
  const actorId = actor?.userId ?? null;
  for (const draft of drafts) {
    const archived = ARCHIVE_FLAG_OF[draft.action];
    if (
      draft.fromStatus &&
      draft.toStatus &&
      (draft.fromStatus !== draft.toStatus || archived !== undefined)
    ) {
      await auditCaseStatus(tx, {
        caseId,
        actorId,
        cause: draft.action,
        from: draft.fromStatus,
        to: draft.toStatus,
        ...(archived === undefined ? {} : { archived }),
        ip: actor?.ip,
      });
    }
    const event = {
      caseId,
      actorId,
      at,
      action: draft.action,
      fromStatus: draft.fromStatus ?? null,
      toStatus: draft.toStatus ?? null,
      detail: draft.detail ?? {},
    };
    await insertCaseEvent(tx, event);
    const notice = await notifyOfCaseEvent(tx, event);
    messages.push({ ...event, detail: publishedDetail(event.detail, notice) });
  }
  return messages;
}

/**
 * Opens a case in status `new` for a patient (the case screen and the shop checkout), in the
 * caller's transaction; the case currency is the one the body names, else the owner's profile
 * currency (BRL for ptBR users without one, else USD). Returns the events to publish after commit.
 */
export async function openCase(
  tx: DbOrTx,
  ownerId: number,
  body: NewCaseBody,
  now: Date,
): Promise<{ caseId: number; caseCurrency: Currency; messages: CaseEventMessage[] }> {
  const owner = await findUserForCase(tx, ownerId);
  if (!owner) throw new AppError(401, 'NOT_AUTHORIZED');
  const caseCurrency = body.caseCurrency ?? profileCurrency(owner.dataInfo);
  const patient = await insertPatient(tx, {
    fname: body.patient.fname,
    lname: body.patient.lname,
    birthDate: body.patient.birthDate ?? null,
    gender: body.patient.gender ?? null,
    note: body.patient.note ?? null,
  });
  const row = await insertCase(tx, {
    ownerId,
    patientId: patient.id,
    caseStatus: 'new',
    listGroup: caseListGroup('new'),
    observation: body.observation ?? '',
    caseCurrency,
    searchText: foldText(`${patient.fname} ${patient.lname}`),
    createdAt: now,
    modifiedAt: now,
  });
  const messages = await recordEvents(
    tx,
    row.id,
    { userId: ownerId },
    [{ action: 'created', toStatus: 'new' }],
    now,
  );
  return { caseId: row.id, caseCurrency, messages };
}

// ───────────────────────────── the service ─────────────────────────────

export function createCasesService(ctx: AppContext) {
  const { db } = ctx;

  /** The next `modifiedAt`: now, but always after the stored one so a stale save is detected. */
  const stamp = (previous: Date) => new Date(Math.max(Date.now(), previous.getTime() + 1));

  function toPreview(row: CasePreviewRow): CasePreview {
    return {
      id: row.id,
      patient: { fname: row.fname, lname: row.lname },
      caseStatus: row.caseStatus as CasePreview['caseStatus'],
      caseArchived: row.caseArchived,
      caseCurrency: row.caseCurrency as Currency,
      owner: { id: row.ownerId, displayName: row.ownerName },
      services: row.services,
      createdAt: row.createdAt.toISOString(),
      deadlineAt: isoOrNull(row.deadlineAt),
      modifiedAt: row.modifiedAt.toISOString(),
      review: row.caseReview,
      unseen: row.unseen,
      dispatch: isOneOf(DISPATCH_KINDS, row.dispatch) ? row.dispatch : null,
    };
  }

  const findCaseDetail = prepareCaseDetail(db);

  /** The case as this caller sees it, in one statement; 404 when hidden or missing. */
  async function readCase(caller: Caller, caseId: number, language: Language): Promise<CaseDetail> {
    const found = await findCaseDetail(caseId, language);
    const access =
      found &&
      caseAccessOf(caller, caseId, { ...found.facts, caseArchived: found.row.caseArchived });
    if (!found || !access) throw new AppError(404, 'NOT_FOUND');
    const { row, patient, services } = found;
    const { missingSlots, unpaidServiceIds, ...checks } = checksOf({
      ...found,
      hasClientFile: found.hasClientAttachment,
    });
    const { actions, can } = availableCaseActions(viewerOf(caller), access.relation, {
      caseStatus: row.caseStatus,
      caseArchived: row.caseArchived,
      hasPrintable: row.hasPrintable,
      checksPass: allCaseChecksPass(checks),
      serviceCount: services.length,
      hasServicesToRequest: services.some(isAwaitingApprovalRequest),
      hasLiveTransaction: hasLiveTransaction(found.transactionStatuses),
      onlyPaymentFails: onlyPaymentFails(checks),
    });
    if (
      mayChangeCurrencyOfCase(
        viewerOf(caller),
        access.relation,
        row,
        found.transactionStatuses.map((paymentStatus) => ({ paymentStatus })),
      )
    ) {
      can.push('changeCurrency');
    }
    return {
      id: row.id,
      ownerId: row.ownerId,
      owner: found.owner,
      caseStatus: row.caseStatus as CaseDetail['caseStatus'],
      caseArchived: row.caseArchived,
      caseReview: row.caseReview,
      caseCurrency: row.caseCurrency as Currency,
      patient: {
        fname: patient?.fname ?? '',
        lname: patient?.lname ?? '',
        birthDate: patient?.birthDate ?? null,
        gender: (patient?.gender ?? null) as CaseDetail['patient']['gender'],
        note: patient?.note ?? null,
      },
      address: row.address ?? null,
      observation: row.observation,
      createdAt: row.createdAt.toISOString(),
      modifiedAt: row.modifiedAt.toISOString(),
      deadlineAt: isoOrNull(row.deadlineAt),
      finishAt: isoOrNull(row.finishAt),
      services: services.map(
        ({ paidAt, transactionStatus, paymentDeferredAt, production, ...s }) => ({
          ...s,
          approveRequestAt: isoOrNull(s.approveRequestAt),
          approveAt: isoOrNull(s.approveAt),
          paid: paidAt !== null,
          payment: servicePaymentState(
            paymentFactsOf({ id: s.id, transactionStatus, paymentDeferredAt }),
          ),
          data: s.data ?? null,
          dataValid: isServiceDataValid(s),
          manufacture: serviceManufacture({ ...production, ...s }),
        }),
      ),
      users: found.members,
      reviews: found.reviews.map((r) => ({
        ...r,
        createdAt: r.createdAt.toISOString(),
        solvedAt: isoOrNull(r.solvedAt),
        canSolve: r.solvedAt === null && maySolveReview(viewerOf(caller), access.relation, row, r),
      })),
      checks: { ...checks, missingSlots, unpaidServiceIds },
      actions,
      can,
      readOnly: access.readOnly,
      delivery: caseDeliveryFor(viewerOf(caller), {
        caseOwnerId: row.ownerId,
        caseAddress: row.address ?? null,
        order: found.deliveryOrder,
      }),
      dispatch: row.dispatch
        ? {
            kind: row.dispatch.kind,
            date: row.dispatch.date,
            carrier: row.dispatch.carrier,
            trackingCode: row.dispatch.trackingCode,
            recordedAt: row.dispatch.recordedAt,
            recordedBy: found.dispatchRecordedBy,
          }
        : null,
      productionActions: caseProductionActions(
        viewerOf(caller),
        access.relation,
        productionFactsOf(row),
      ),
    };
  }

  /** What the dispatch and address rules read about a case. */
  const productionFactsOf = (row: CaseRow): CaseProductionFacts => ({
    caseStatus: row.caseStatus,
    caseArchived: row.caseArchived,
    hasPrintable: row.hasPrintable,
    dispatched: row.dispatch !== null,
  });

  /**
   * The case's address: the owner or staff until the order is dispatched (409 once it is, or
   * while archived); anyone else 403.
   */
  function authorizeAddress(access: CaseAccess, row: CaseRow) {
    const facts = productionFactsOf(row);
    if (mayEditCaseAddress(access.relation, facts)) return;
    const client = access.relation === 'owner' || access.relation === 'staff';
    if (client && facts.caseArchived) throw new AppError(409, 'CASE_ARCHIVED');
    if (client && facts.dispatched) throw new AppError(409, 'ALREADY_DISPATCHED');
    throw new AppError(403, 'FORBIDDEN');
  }

  async function requireAccess(caller: Caller, caseId: number): Promise<CaseAccess> {
    const access = await loadCaseAccess(db, caller, caseId);
    if (!access) throw new AppError(404, 'NOT_FOUND');
    return access;
  }

  /**
   * Refuses what the rule does not allow on this case: archived (frozen) → 409 CASE_ARCHIVED
   * when it would be allowed on the un-archived case, else 403.
   */
  function refuseUnless(allowed: (record: CaseRecordFacts) => boolean, row: CaseRow) {
    if (allowed(row)) return;
    if (isArchived(row) && allowed({ ...row, ...unarchive(row) })) {
      throw new AppError(409, 'CASE_ARCHIVED');
    }
    throw new AppError(403, 'FORBIDDEN');
  }

  /** Refuses an operation the caller may not do (`mayOnCase`), as `refuseUnless`. */
  function authorize(operation: CaseOperation, caller: Caller, access: CaseAccess, row: CaseRow) {
    const viewer = viewerOf(caller);
    refuseUnless((record) => mayOnCase(operation, viewer, access.relation, record), row);
  }

  /**
   * The operation that lets this caller touch case users at all: staff manage every case user,
   * anyone else at most adds and removes partners (the owning clinic).
   */
  const caseUsersOperation = (access: CaseAccess): CaseOperation =>
    access.relation === 'staff' ? 'manageUsers' : 'addPartner';

  /**
   * One change of a case: in a transaction, lock the row, check access (404 when hidden), run the
   * change, record its history rows, refresh the derived columns; publish after commit; answer
   * the case as the caller now sees it.
   */
  async function change(
    caller: Caller,
    caseId: number,
    language: Language,
    work: (tx: DbOrTx, access: CaseAccess, row: CaseRow, now: Date) => Promise<EventDraft[]>,
  ): Promise<CaseDetail> {
    const published = await db.transaction(async (tx) => {
      const access = await loadCaseAccess(tx, caller, caseId, { lock: true });
      if (!access) throw new AppError(404, 'NOT_FOUND');
      const row = (await findCase(tx, caseId))!;
      const now = stamp(row.modifiedAt);
      const drafts = await work(tx, access, row, now);
      const messages = await recordEvents(tx, caseId, caller, drafts, now);
      await refreshCaseDerived(tx, caseId, now);
      messages.push(...(await advancePaidCase(tx, caseId, caller.userId, now)));
      return messages;
    });
    ctx.caseEvents.publish(published);
    // A change can end the caller's view of the case (e.g. the last planner removed): 404 then.
    return readCase(caller, caseId, language);
  }

  async function findOwnedService(
    tx: DbOrTx,
    caseId: number,
    serviceId: number,
    language: Language,
  ) {
    const services = await listCaseServices(tx, caseId, language);
    const service = services.find((s) => s.id === serviceId);
    if (!service) throw new AppError(404, 'NOT_FOUND');
    return { service, services };
  }

  return {
    async create(caller: Caller, body: NewCaseBody, language: Language): Promise<CaseDetail> {
      const { caseId, messages } = await db.transaction((tx) =>
        openCase(tx, caller.userId, body, new Date()),
      );
      ctx.caseEvents.publish(messages);
      return readCase(caller, caseId, language);
    },

    async list(
      caller: Caller,
      filter: CaseListFilter,
      page: number,
      query: { q?: string | undefined; pageSize: number },
      language: Language,
    ): Promise<CasePage> {
      const q = query.q ? foldText(query.q) : undefined;
      const { rows, total } = await listCasePage(db, viewerOf(caller), {
        filter,
        page,
        pageSize: query.pageSize,
        q: q || undefined,
        language,
      });
      return { items: rows.map(toPreview), total, page, pageSize: query.pageSize };
    },

    counts(caller: Caller): Promise<CaseCounts> {
      return countCasesByFilter(db, viewerOf(caller));
    },

    async archiveSearch(
      caller: Caller,
      page: number,
      query: {
        patient?: string | undefined;
        from?: string | undefined;
        to?: string | undefined;
        category?: number | undefined;
        product?: number | undefined;
        currency?: string | undefined;
        status?: string | undefined;
        pageSize: number;
      },
      language: Language,
    ): Promise<CasePage> {
      const patient = query.patient ? foldText(query.patient) : undefined;
      const { rows, total } = await searchArchivedCases(db, viewerOf(caller), {
        ...query,
        patient: patient || undefined,
        page,
        language,
      });
      return { items: rows.map(toPreview), total, page, pageSize: query.pageSize };
    },

    async get(caller: Caller, caseId: number, language: Language): Promise<CaseDetail> {
      return readCase(caller, caseId, language);
    },

    /**
     * The case's events, oldest first; the money in payment events only for whoever sees the
     * transaction (the domain's `caseEventDetailFor`, the rule of the transactions list).
     */
    async history(caller: Caller, caseId: number): Promise<CaseEvent[]> {
      const access = await requireAccess(caller, caseId);
      const events = await listCaseEvents(db, caseId);
      const actorIds = [...new Set(events.map((e) => e.actorId).filter((id) => id !== null))];
      const names = new Map((await findUsersByIds(db, actorIds)).map((u) => [u.id, u.displayName]));
      const payers = new Map(
        (await listCaseTransactionPayers(db, caseId)).map((t) => [t.id, t.payerId]),
      );
      const facts = (detail: Record<string, unknown>) => ({
        caseOwnerId: access.ownerId,
        payerId:
          typeof detail.transactionId === 'number'
            ? (payers.get(detail.transactionId) ?? null)
            : null,
      });
      return events.map((e) => ({
        id: e.id,
        caseId: e.caseId,
        at: e.at.toISOString(),
        actor:
          e.actorId === null ? null : { id: e.actorId, displayName: names.get(e.actorId) ?? '' },
        action: e.action,
        fromStatus: e.fromStatus,
        toStatus: e.toStatus,
        detail: caseEventDetailFor(caller, e, facts(e.detail)),
      }));
    },

    set(caller: Caller, caseId: number, body: CaseSetBody, language: Language) {
      const expected = Date.parse(body.modifiedAt);
      if (Number.isNaN(expected)) throw validationError({ modifiedAt: 'validation.invalid' });
      return change(caller, caseId, language, async (tx, access, row) => {
        // The address alone follows the delivery's rule (until dispatch); the rest is 'edit'.
        const addressOnly =
          body.address !== undefined &&
          body.patient === undefined &&
          body.observation === undefined;
        if (!addressOnly) authorize('edit', caller, access, row);
        if (body.address !== undefined) authorizeAddress(access, row);
        if (row.modifiedAt.getTime() !== expected) throw new AppError(409, 'CASE_CHANGED');
        const changed: string[] = [];
        if (body.patient) {
          await updatePatient(tx, row.patientId, {
            fname: body.patient.fname,
            lname: body.patient.lname,
            ...(body.patient.birthDate !== undefined ? { birthDate: body.patient.birthDate } : {}),
            ...(body.patient.gender !== undefined ? { gender: body.patient.gender } : {}),
            ...(body.patient.note !== undefined ? { note: body.patient.note } : {}),
          });
          changed.push('patient');
        }
        if (body.observation !== undefined) {
          await updateCase(tx, caseId, { observation: body.observation });
          changed.push('observation');
        }
        if (body.address !== undefined) {
          await updateCase(tx, caseId, { address: body.address });
          changed.push('address');
        }
        const drafts: EventDraft[] = [];
        if (body.caseCurrency !== undefined && body.caseCurrency !== row.caseCurrency) {
          authorize('changeCurrency', caller, access, row);
          const statuses = await listCaseTransactionStatuses(tx, caseId);
          if (!mayChangeCaseCurrency(statuses.map((paymentStatus) => ({ paymentStatus })))) {
            throw new AppError(409, 'CASE_CURRENCY_LOCKED');
          }
          await updateCase(tx, caseId, { caseCurrency: body.caseCurrency });
          drafts.push({
            action: 'currencyChanged',
            detail: { from: row.caseCurrency, to: body.caseCurrency },
          });
        }
        // Only the currency changed: its own history row says so.
        if (changed.length > 0 || drafts.length === 0) {
          drafts.unshift({ action: 'updated', detail: { changed } });
        }
        return drafts;
      });
    },

    /**
     * Records the order's dispatch on a made case (finished or closed) with a printed service,
     * once: a shipment with its carrier (and tracking code), or 'ready for pickup' for a local
     * withdraw. The history row notifies the owner (`caseDispatched`).
     */
    dispatch(caller: Caller, caseId: number, body: CaseDispatchBody, language: Language) {
      return change(caller, caseId, language, async (tx, access, row, now) => {
        if (!mayDispatchCase(viewerOf(caller), access.relation)) {
          throw new AppError(403, 'FORBIDDEN');
        }
        const refusal = dispatchRefusal(productionFactsOf(row));
        if (refusal === 'archived') throw new AppError(409, 'CASE_ARCHIVED');
        if (refusal === 'alreadyDispatched') throw new AppError(409, 'ALREADY_DISPATCHED');
        if (refusal) throw new AppError(409, 'CASE_NOT_DISPATCHABLE');
        const order = await findDeliveryOrder(tx, caseId);
        const kind = dispatchKindFor(order?.shipment.shipmentType);
        const problems = dispatchBodyProblems(body, kind, now.toISOString().slice(0, 10));
        if (problems) throw validationError(problems);
        const dispatch = {
          kind,
          date: body.date,
          carrier: body.carrier || null,
          trackingCode: body.trackingCode || null,
        };
        // The row is locked, so 'once' holds; the guarded write keeps it so regardless.
        const stored = await setCaseDispatch(tx, caseId, {
          ...dispatch,
          recordedAt: now.toISOString(),
          recordedBy: caller.userId,
        });
        if (!stored) throw new AppError(409, 'ALREADY_DISPATCHED');
        return [{ action: 'dispatched', detail: dispatch }];
      });
    },

    addService(caller: Caller, caseId: number, body: AddServiceBody, language: Language) {
      return change(caller, caseId, language, async (tx, access, row, now) => {
        authorize('addService', caller, access, row);
        // Once the case has a live transaction, more services come only through an order for
        // the case (the shop), so each new service is paid by a transaction of its own.
        if (hasLiveTransaction(await listCaseTransactionStatuses(tx, caseId))) {
          throw new AppError(409, 'CASE_HAS_TRANSACTION');
        }
        const order = { language, currency: row.caseCurrency as Currency };
        const added = await addServicesToCase(tx, caseId, [body], order, now);
        return [
          {
            action: 'serviceAdded',
            detail: { productId: body.productId, serviceIds: added.map((s) => s.id) },
          },
        ];
      });
    },

    removeService(caller: Caller, caseId: number, serviceId: number, language: Language) {
      return change(caller, caseId, language, async (tx, access, row) => {
        authorize('edit', caller, access, row);
        const { service } = await findOwnedService(tx, caseId, serviceId, language);
        if (service.paidAt !== null) throw new AppError(409, 'SERVICE_PAID');
        // A pending charge still asks for it: cancelling that transaction removes it.
        if (isLiveTransactionStatus(service.transactionStatus)) {
          throw new AppError(409, 'SERVICE_IN_TRANSACTION');
        }
        await deleteCaseService(tx, serviceId);
        return [{ action: 'serviceRemoved', detail: { serviceId, productId: service.productId } }];
      });
    },

    setServiceData(
      caller: Caller,
      caseId: number,
      serviceId: number,
      body: ServiceDataBody,
      language: Language,
    ) {
      // The layout's shape is checked here; completeness (`isServiceDataValid`) is the case check,
      // so a form can be saved half filled.
      const schema = isOldServiceDataLayout(body.dataVersion)
        ? serviceDataV1Schema
        : serviceDataV3Schema;
      const parsed = schema.safeParse(body.data);
      if (!parsed.success) throw validationError(zodIssueFields('data', parsed.error.issues));
      return change(caller, caseId, language, async (tx, access, row) => {
        authorize('serviceData', caller, access, row);
        await findOwnedService(tx, caseId, serviceId, language);
        await updateCaseService(tx, serviceId, { dataVersion: body.dataVersion, data: body.data });
        return [{ action: 'serviceData', detail: { serviceId, dataVersion: body.dataVersion } }];
      });
    },

    async move(caller: Caller, caseId: number, body: CaseMoveBody, language: Language) {
      const { action } = body;
      const text = body.text?.trim() ?? '';
      if (action === 'approve') {
        const fields: Record<string, string> = {};
        if (!body.password) fields.password = 'validation.required';
        if (!text) fields.text = 'validation.required';
        if (!body.serviceIds?.length) fields.serviceIds = 'validation.required';
        if (Object.keys(fields).length > 0) throw validationError(fields);
      }
      if (action === 'requestModification' && !text) {
        throw validationError({ text: 'validation.required' });
      }
      if (action === 'approve') {
        // Checked before the row lock: argon2 is slow on purpose and must not hold the case.
        const access = await requireAccess(caller, caseId);
        if (!mayAttemptCaseAction(action, viewerOf(caller), access.relation)) {
          throw new AppError(403, 'FORBIDDEN');
        }
        const user = await findUserForCase(db, caller.userId);
        if (!user) throw new AppError(400, 'WRONG_PASSWORD');
        const right = await ctx.passwordChecks.verify(
          { account: accountOfUser(caller.userId), address: caller.ip },
          user.passwordHash,
          body.password ?? '',
        );
        if (!right) throw new AppError(400, 'WRONG_PASSWORD');
      }
      return change(caller, caseId, language, async (tx, access, row, now) => {
        const viewer = viewerOf(caller);
        if (!mayAttemptCaseAction(action, viewer, access.relation)) {
          throw new AppError(403, 'FORBIDDEN');
        }
        if (isArchived(row)) throw new AppError(409, 'CASE_ARCHIVED');
        const services = await listCaseServices(tx, caseId, language);
        const to = nextCaseStatus(row.caseStatus, action, {
          hasPrintableService: services.some((s) => s.printableProduct),
          checksPass: true,
          hasServicesToRequest: services.some(isAwaitingApprovalRequest),
        });
        if (!to) throw new AppError(409, 'INVALID_TRANSITION');
        const from = row.caseStatus;
        const detail: Record<string, unknown> = {};
        if (text) detail.text = text;
        let next: string = to;

        switch (action) {
          case 'validate': {
            const checks = await caseChecksOf(tx, row, services);
            const override = body.paymentOverride;
            if (!allCaseChecksPass(checks)) {
              // Unpaid services are validated only on purpose: a supervisor names a reason.
              if (!override || !onlyPaymentFails(checks)) {
                throw new AppError(
                  409,
                  'CASE_CHECKS_FAILED',
                  Object.fromEntries(
                    failingCaseChecks(checks).map((key) => [`checks.${key}`, 'validation.invalid']),
                  ),
                );
              }
              const deferred = services.filter((s) => checks.unpaidServiceIds.includes(s.id));
              await deferServicesPayment(
                tx,
                deferred.map((s) => s.id),
                { at: now, by: caller.userId, reason: override.reason },
              );
              const paymentOverride = {
                reason: override.reason,
                serviceIds: deferred.map((s) => s.id),
                unpaidAmount: await unpaidAmountOf(tx, deferred, row.caseCurrency as Currency),
                currency: row.caseCurrency,
              };
              await auditPaymentOverride(tx, {
                caseId,
                actorId: caller.userId,
                ip: caller.ip,
                ...paymentOverride,
              });
              detail.paymentOverride = paymentOverride;
            }
            Object.assign(detail, await applyValidation(tx, caseId, services, now));
            break;
          }
          case 'requestApproval': {
            // Services not paid yet (an upgrade awaiting payment) are not planned or approved.
            const mine = services.filter(
              (s) =>
                s.approveAt === null &&
                (access.relation === 'staff' || s.plannerId === caller.userId) &&
                isServiceCovered(paymentFactsOf(s)),
            );
            if (mine.length === 0) throw new AppError(409, 'INVALID_TRANSITION');
            for (const s of mine) await updateCaseService(tx, s.id, { approveRequestAt: now });
            detail.serviceIds = mine.map((s) => s.id);
            break;
          }
          case 'approve': {
            const chosen = body.serviceIds ?? [];
            const pending = new Map(
              services
                .filter((s) =>
                  isPendingApproval({
                    approveRequestAt: isoOrNull(s.approveRequestAt),
                    approveAt: isoOrNull(s.approveAt),
                  }),
                )
                .map((s) => [s.id, s]),
            );
            if (!chosen.every((id) => pending.has(id))) {
              throw validationError({ serviceIds: 'validation.invalid' });
            }
            for (const id of chosen) await updateCaseService(tx, id, { approveAt: now });
            detail.serviceIds = chosen;
            // The case leaves 'approve' only when every service is approved (docs/decisions/011):
            // one still to be requested (planned later, or ordered and not paid yet) keeps it.
            const approved = new Set(chosen);
            if (services.some((s) => s.approveAt === null && !approved.has(s.id))) next = from;
            break;
          }
          case 'requestModification':
            await insertCaseReview(tx, {
              caseId,
              reasonId: null,
              description: text,
              createdBy: caller.userId,
              createdAt: now,
            });
            break;
          case 'finish':
            await updateCase(tx, caseId, { finishAt: now });
            break;
          default:
            break;
        }
        if (next !== from) {
          await updateCase(tx, caseId, { caseStatus: next, listGroup: caseListGroup(next) });
        }
        return [{ action, fromStatus: from, toStatus: next, detail }];
      });
    },

    addUser(
      caller: Caller,
      caseId: number,
      body: { userId: number; triggerNotification: boolean },
      language: Language,
    ) {
      return change(caller, caseId, language, async (tx, access, row) => {
        const user = await findUserForCase(tx, body.userId);
        // Staff add anyone; a clinic owning the case only a partner linked to it.
        const linkedToOwnerClinic =
          user !== undefined && (await isPartnerLinkedToClinic(tx, row.ownerId, user.id));
        const addition = {
          viewer: viewerOf(caller),
          relation: access.relation,
          record: row,
          addedRoles: user?.roles ?? [],
          linkedToOwnerClinic,
        };
        if (!mayAddCaseUser(addition)) {
          // 409 CASE_ARCHIVED when only the freeze is in the way, else 403.
          authorize(caseUsersOperation(access), caller, access, row);
          throw new AppError(403, 'FORBIDDEN');
        }
        if (!user || !user.verifiedAt) throw validationError({ userId: 'validation.invalid' });
        await upsertCaseUser(tx, { caseId, ...body, viaRole: membershipRoleOfAddition(addition) });
        return [{ action: 'userAdded', detail: { userId: body.userId } }];
      });
    },

    async removeUser(caller: Caller, caseId: number, userId: number, language: Language) {
      const detail = await change(caller, caseId, language, async (tx, access, row) => {
        authorize(caseUsersOperation(access), caller, access, row);
        const member = (await listCaseMembers(tx, caseId)).find((m) => m.userId === userId);
        if (!member) throw new AppError(404, 'NOT_FOUND');
        // Staff remove anyone; the owning clinic only partners.
        const removal = {
          viewer: viewerOf(caller),
          relation: access.relation,
          record: row,
          removedRoles: member.roles,
        };
        if (!mayRemoveCaseUser(removal)) throw new AppError(403, 'FORBIDDEN');
        await deleteCaseUser(tx, caseId, userId);
        return [{ action: 'userRemoved', detail: { userId } }];
      });
      // Before answering: the removed user's open sockets hear nothing more of the case.
      await ctx.live.recheckAccess(userId, caseId);
      return detail;
    },

    setPlanner(
      caller: Caller,
      caseId: number,
      body: { plannerId: number; serviceIds?: number[] | undefined },
      language: Language,
    ) {
      return change(caller, caseId, language, async (tx, access, row) => {
        authorize('manageUsers', caller, access, row);
        const planner = await findUserForCase(tx, body.plannerId);
        if (!planner || !planner.verifiedAt || !isPlanner(planner.roles)) {
          throw validationError({ plannerId: 'validation.invalid' });
        }
        const services = await listCaseServices(tx, caseId, language);
        const ids = body.serviceIds ?? services.map((s) => s.id);
        const own = new Set(services.map((s) => s.id));
        if (ids.length === 0 || !ids.every((id) => own.has(id))) {
          throw validationError({ serviceIds: 'validation.invalid' });
        }
        for (const id of ids) await updateCaseService(tx, id, { plannerId: body.plannerId });
        // A member as the case's planner: the membership ends with the planner role.
        await ensureCaseUser(tx, caseId, body.plannerId, 'planner');
        return [{ action: 'plannerSet', detail: { plannerId: body.plannerId, serviceIds: ids } }];
      });
    },

    openReview(
      caller: Caller,
      caseId: number,
      body: { reasonId?: number | undefined; description: string },
      language: Language,
    ) {
      return change(caller, caseId, language, async (tx, access, row, now) => {
        authorize('openReview', caller, access, row);
        const review = await insertCaseReview(tx, {
          caseId,
          reasonId: body.reasonId ?? null,
          description: body.description,
          createdBy: caller.userId,
          createdAt: now,
        });
        return [
          { action: 'reviewOpened', detail: { reviewId: review.id, reasonId: review.reasonId } },
        ];
      });
    },

    solveReview(caller: Caller, caseId: number, reviewId: number, language: Language) {
      return change(caller, caseId, language, async (tx, access, row, now) => {
        // Checked per review: who closes it depends on its reason (a payment issue is staff's).
        const review = await findOpenCaseReview(tx, caseId, reviewId);
        if (!review) throw new AppError(404, 'NOT_FOUND');
        const viewer = viewerOf(caller);
        refuseUnless((record) => maySolveReview(viewer, access.relation, record, review), row);
        await solveCaseReview(tx, caseId, reviewId, caller.userId, now);
        return [{ action: 'reviewSolved', detail: { reviewId } }];
      });
    },

    archive(caller: Caller, caseId: number, language: Language) {
      return change(caller, caseId, language, async (tx, access, row) => {
        if ((access.relation === 'owner' || access.relation === 'staff') && !canArchive(row)) {
          throw new AppError(409, isArchived(row) ? 'CASE_ARCHIVED' : 'INVALID_TRANSITION');
        }
        authorize('archive', caller, access, row);
        await updateCase(tx, caseId, { caseArchived: true });
        return [{ action: 'archived', fromStatus: row.caseStatus, toStatus: row.caseStatus }];
      });
    },

    unarchive(caller: Caller, caseId: number, language: Language) {
      return change(caller, caseId, language, async (tx, access, row) => {
        if ((access.relation === 'owner' || access.relation === 'staff') && !isArchived(row)) {
          throw new AppError(409, 'INVALID_TRANSITION');
        }
        authorize('unarchive', caller, access, row);
        const restored = unarchive(row);
        await updateCase(tx, caseId, {
          caseArchived: false,
          caseStatus: restored.caseStatus,
          listGroup: caseListGroup(restored.caseStatus),
        });
        return [
          { action: 'unarchived', fromStatus: row.caseStatus, toStatus: restored.caseStatus },
        ];
      });
    },

    /**
     * The deadline-near job: every case still being planned whose deadline is within a day gets
     * the review 'planning deadline near' once (while that review is open). Returns the case ids.
     */
    async markNearDeadlines(now: Date = new Date()): Promise<number[]> {
      const due = await findCasesWithDeadlineBefore(
        db,
        new Date(now.getTime() + DEADLINE_NEAR_MS),
        DEADLINE_SETTLED_STATUSES,
        REVIEW_REASONS.planningDeadlineNear,
      );
      const marked: number[] = [];
      for (const { id } of due) {
        const messages = await db.transaction(async (tx) => {
          // Locked like any change of the case, so a move at the same time waits.
          if (!(await findCaseVisibilityFacts(tx, id, { lock: true }))) return [];
          const row = (await findCase(tx, id))!;
          if (await hasOpenReview(tx, id, REVIEW_REASONS.planningDeadlineNear)) return [];
          const at = stamp(row.modifiedAt);
          await insertCaseReview(tx, {
            caseId: id,
            reasonId: REVIEW_REASONS.planningDeadlineNear,
            description: '',
            createdAt: at,
          });
          const events = await recordEvents(
            tx,
            id,
            null,
            [{ action: 'reviewOpened', detail: { reasonId: REVIEW_REASONS.planningDeadlineNear } }],
            at,
          );
          await refreshCaseDerived(tx, id, at);
          return events;
        });
        if (messages.length > 0) marked.push(id);
        ctx.caseEvents.publish(messages);
      }
      return marked;
    },
  };
}

export type CasesService = ReturnType<typeof createCasesService>;
