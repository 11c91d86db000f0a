import {
  isCombo,
  isPrintableProduct,
  profileCurrency,
  REVIEW_REASONS,
  allCaseChecksPass,
  priceLanguageFor,
  productPrice,
  caseDeadline,
  caseListGroup,
  emptyServiceDataV3,
  foldText,
  isLiveTransactionStatus,
  isProductOrderable,
  isServiceQuantityValid,
  serviceQuantityRange,
  type Currency,
  type DeferredCasePayment,
  type Language,
  type NewCaseBody,
} from '@dentflow/domain';
import type { CaseEventMessage } from '../../adapters/events/case-events';
import type { DbOrTx } from '../../db/client';
import { assertProfileComplete, findUserById } from '../users';
import { AppError, validationError } from '../../http/app-error';
import { notifyOfCaseEvent, publishedDetail } from './case-activity';
import { caseStatusAuditEntry } from './case-status-audit';
import {
  findTransactionTotals,
  insertCase,
  insertCaseEvent,
  insertCaseReview,
  insertCaseServices,
  findProduct,
  findProductsByIds,
  insertPatient,
  listCaseTransactionStatuses,
  listServicesWithoutOrder,
  listDeferredUnpaidServices,
  refreshCaseColumns,
  updateCase,
  type CaseServiceRow,
  type CaseEventWrite,
  type ProductRow,
} from './cases.repository';
import { findCase, listCaseServices, type CaseServiceWithProduct } from './case-detail.repository';
import { findCaseVisibilityFacts } from './case-visibility.repository';

import { caseChecksOf } from './case-rule-facts';

/**
 * The cases module's lifecycle: what other modules call on a case inside their own transaction
 * (the shop's checkout, payments, files) and the pieces every change of a case shares (history
 * rows with their notifications, the derived columns, validation's effects).
 */

/** A case change to record (history row in the transaction) and publish (after commit). */
export interface EventDraft {
  action: string;
  fromStatus?: string | null;
  toStatus?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * What deferred services would cost, for the override's record: the total of the transactions
 * that wait for them, and the list price of those without one (no discount is known for them).
 */
export async function unpaidAmountOf(
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
export async function applyValidation(
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
  /** The case as the caller, holding its row lock, just left it: nothing to read when not due. */
  locked?: {
    caseStatus: string;
    caseArchived: boolean;
    /** Its transactions' statuses, when the caller read them under the lock. */
    transactionStatuses?: readonly string[];
  },
): Promise<CaseEventMessage[]> {
  const due = (state: { caseStatus: string; caseArchived: boolean }) =>
    state.caseStatus === 'checkingout' && !state.caseArchived;
  if (locked && !due(locked)) return [];
  // Locked (a no-op when the caller holds it): two changes at once cannot both move the case.
  if (!locked && !(await findCaseVisibilityFacts(tx, caseId, { lock: true }))) return [];
  let row = locked ? undefined : (await findCase(tx, caseId))!;
  if (row && !due(row)) return [];
  // Only a paid case moves by itself: one without a live transaction waits for a supervisor.
  const statuses = locked?.transactionStatuses ?? (await listCaseTransactionStatuses(tx, caseId));
  if (!statuses.some((status) => status !== 'cancelled')) return [];
  row ??= (await findCase(tx, caseId))!;
  const services = await listCaseServices(tx, caseId, 'en');
  if (services.length === 0) return [];
  if (!allCaseChecksPass(await caseChecksOf(tx, row, services))) return [];
  const detail = { ...(await applyValidation(tx, caseId, services, now)), automatic: true };
  const messages = await recordEvents(
    tx,
    caseId,
    actorId === null ? null : { userId: actorId },
    [{ action: 'validate', fromStatus: 'checkingout', toStatus: 'execute', detail }],
    now,
  );
  await refreshCaseDerived(tx, caseId, now, { caseStatus: 'execute' });
  return messages;
}

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
    if (isCombo(product)) {
      const inner = await findProductsByIds(tx, product.innerProducts);
      const byId = new Map(inner.map((p) => [p.id, p]));
      parts = product.innerProducts.map((id) => {
        const part = byId.get(id);
        if (!productAvailable(part) || isCombo(part)) {
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
 * printable flag, open-review flag) and stamps `modifiedAt`; a change of status given here is
 * written in the same statement (one update of the case, so its triggers run once). Returns the
 * status and archive flag the case now has, or undefined when it does not exist.
 */
export async function refreshCaseDerived(
  tx: DbOrTx,
  caseId: number,
  now: Date,
  change: { caseStatus?: string } = {},
  /** The change's history row (and audit row), written by the case's update (see `recordEventsAndRefresh`). */
  history?: CaseEventWrite,
): Promise<{ caseStatus: string; caseArchived: boolean } | undefined> {
  const row = await refreshCaseColumns(
    tx,
    caseId,
    { caseStatus: change.caseStatus, modifiedAt: now },
    history,
  );
  if (!row) return undefined;
  // The patient's name changes only with a save of the patient: then a second update.
  const searchText = foldText(`${row.fname} ${row.lname}`);
  if (row.searchText !== searchText) await updateCase(tx, caseId, { searchText });
  return { caseStatus: row.caseStatus, caseArchived: row.caseArchived };
}

/**
 * Writes the drafts as history rows with the notifications they raise, and returns what to
 * publish after commit (recipients in `detail.notified`, see `case-activity.ts`).
 */
export async function recordEvents(
  tx: DbOrTx,
  caseId: number,
  actor: { userId: number; ip?: string | undefined } | null,
  drafts: readonly EventDraft[],
  at: Date,
): Promise<CaseEventMessage[]> {
  const messages: CaseEventMessage[] = [];
  for (const draft of drafts) {
    const write = eventOf(caseId, actor, draft, at);
    await insertCaseEvent(tx, write);
    messages.push(await notified(tx, write.event));
  }
  return messages;
}

/**
 * `recordEvents`, then `refreshCaseDerived` with `change`, where the last history row (and its
 * audit row) is written by the case's update, as its CTEs: one statement less per change, still
 * in its transaction and still after the notifications. Returns the messages and the case's state.
 */
export async function recordEventsAndRefresh(
  tx: DbOrTx,
  caseId: number,
  actor: { userId: number; ip?: string | undefined } | null,
  drafts: readonly EventDraft[],
  at: Date,
  change: { caseStatus?: string } = {},
): Promise<{
  messages: CaseEventMessage[];
  after: { caseStatus: string; caseArchived: boolean } | undefined;
}> {
  const last = drafts.at(-1);
  const messages = await recordEvents(tx, caseId, actor, drafts.slice(0, -1), at);
  if (!last) return { messages, after: await refreshCaseDerived(tx, caseId, at, change) };
  const write = eventOf(caseId, actor, last, at);
  messages.push(await notified(tx, write.event));
  const after = await refreshCaseDerived(tx, caseId, at, change, write);
  return { messages, after };
}

/** The archive flag after the history actions that change it. */
const ARCHIVE_FLAG_OF: Partial<Record<string, boolean>> = { archived: true, unarchived: false };

/** A draft's history row and, for a change of status or archive flag, its audit row. */
function eventOf(
  caseId: number,
  actor: { userId: number; ip?: string | undefined } | null,
  draft: EventDraft,
  at: Date,
) {
  const actorId = actor?.userId ?? null;
  const archived = ARCHIVE_FLAG_OF[draft.action];
  const audit =
    draft.fromStatus &&
    draft.toStatus &&
    (draft.fromStatus !== draft.toStatus || archived !== undefined)
      ? caseStatusAuditEntry({
          caseId,
          actorId,
          cause: draft.action,
          from: draft.fromStatus,
          to: draft.toStatus,
          ...(archived === undefined ? {} : { archived }),
          ip: actor?.ip,
        })
      : undefined;
  const event = {
    caseId,
    actorId,
    at,
    action: draft.action,
    fromStatus: draft.fromStatus ?? null,
    toStatus: draft.toStatus ?? null,
    detail: draft.detail ?? {},
  };
  return { event, audit } satisfies CaseEventWrite;
}

/** The event's notifications, and the message to publish after commit. */
async function notified(
  tx: DbOrTx,
  event: ReturnType<typeof eventOf>['event'],
): Promise<CaseEventMessage> {
  const notice = await notifyOfCaseEvent(tx, event);
  return { ...event, detail: publishedDetail(event.detail, notice) };
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
  const owner = await findUserById(tx, ownerId);
  if (!owner) throw new AppError(401, 'NOT_AUTHORIZED');
  assertProfileComplete(owner);
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
