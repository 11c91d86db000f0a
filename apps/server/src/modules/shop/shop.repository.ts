import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { CheckoutResult, Shipment } from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import {
  caseServices,
  cases,
  checkoutRequests,
  coupons,
  products,
  sleeves,
  transactions,
} from '../../db/schema';

export type ShopProductRow = typeof products.$inferSelect;
export type ShopCouponRow = typeof coupons.$inferSelect;
export type SleeveRow = typeof sleeves.$inferSelect;

export async function findCaseCurrency(db: DbOrTx, caseId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ caseCurrency: cases.caseCurrency })
    .from(cases)
    .where(eq(cases.id, caseId))
    .limit(1);
  return row?.caseCurrency;
}

/** Sleeve manufacturers on offer (not deleted), in a stable order. */
export async function listSleeves(db: DbOrTx): Promise<SleeveRow[]> {
  return db.select().from(sleeves).where(isNull(sleeves.deletedAt)).orderBy(sleeves.id);
}

// ───────────────────────────── idempotent checkout ─────────────────────────────

/**
 * Claims an idempotency key for the user. Returns the new row's id, or null when the key exists
 * already; a concurrent insert of the same key waits here until the other transaction ends.
 */
export async function claimCheckoutRequest(
  db: DbOrTx,
  values: { userId: number; idempotencyKey: string; requestHash: string },
): Promise<number | null> {
  const [row] = await db
    .insert(checkoutRequests)
    .values(values)
    .onConflictDoNothing({ target: [checkoutRequests.userId, checkoutRequests.idempotencyKey] })
    .returning({ id: checkoutRequests.id });
  return row?.id ?? null;
}

export async function findCheckoutRequest(db: DbOrTx, userId: number, idempotencyKey: string) {
  const [row] = await db
    .select()
    .from(checkoutRequests)
    .where(
      and(eq(checkoutRequests.userId, userId), eq(checkoutRequests.idempotencyKey, idempotencyKey)),
    )
    .limit(1);
  return row;
}

export async function saveCheckoutResponse(
  db: DbOrTx,
  id: number,
  response: CheckoutResult,
): Promise<void> {
  await db.update(checkoutRequests).set({ response }).where(eq(checkoutRequests.id, id));
}

export async function setServiceManufactureData(
  db: DbOrTx,
  serviceId: number,
  manufactureData: { sleevesManufacture: number | null; sleevesQtd: number },
): Promise<void> {
  await db.update(caseServices).set({ manufactureData }).where(eq(caseServices.id, serviceId));
}

/** The delivery of the case's latest transaction that shipped something, or null. */
export async function findLatestCaseShipment(db: DbOrTx, caseId: number): Promise<Shipment | null> {
  const rows = await db
    .select({ shipment: transactions.shipment })
    .from(transactions)
    .where(eq(transactions.caseId, caseId))
    .orderBy(desc(transactions.createdAt), desc(transactions.id));
  return rows.find((row) => row.shipment)?.shipment ?? null;
}

/** The shipments of the user's latest transactions that shipped something, newest first. */
export async function listRecentShipments(
  db: DbOrTx,
  payerId: number,
  limit: number,
): Promise<Shipment[]> {
  const rows = await db
    .select({ shipment: transactions.shipment })
    .from(transactions)
    .where(and(eq(transactions.payerId, payerId), isNotNull(transactions.shipment)))
    .orderBy(desc(transactions.createdAt), desc(transactions.id))
    .limit(limit);
  return rows.map((row) => row.shipment).filter((s): s is Shipment => s !== null);
}
