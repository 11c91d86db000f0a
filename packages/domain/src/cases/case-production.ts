import { z } from 'zod';
import { isPlanner, isPrinter } from '../auth/roles';
import { addressSchema, type Address } from '../common/address';
import { isOneOf } from '../common/one-of';
import { SHIPPING_OPTIONS, TEETH_PER_JAW } from '../constants';
import { MESSAGE } from '../forms/rules';
import { CURRENCIES, type Currency } from '../i18n/locale';
import { PAYMENT_METHODS, type PaymentMethod } from '../payments/payment';
import { transactionRelation } from '../payments/transaction-permissions';
import type { Shipment } from '../shop/shipment';
import { isPlanningKind } from '../shop/product';
import type { CaseRelation, CaseViewer } from './case-access';
import { JAWS, isOldServiceDataLayout, type Jaw } from './service-data';

/**
 * What a case's makers need (docs/permissions.md, "Production and delivery"): what to manufacture
 * for each service, where and how the order goes, and its dispatch. Everyone who sees a case
 * reads these; the money of the delivery (fee, order total, payment method) only those who see
 * the case's transactions (`transactionRelation`: staff, the payer, the owner).
 */

// ───────────────────────────── what to manufacture ─────────────────────────────

/** FDI numbers of the 14 tooth positions of each jaw in the old service-data layout. */
export const OLD_LAYOUT_TEETH = {
  upper: [17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27],
  lower: [47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37],
} as const satisfies Record<'upper' | 'lower', readonly number[]>;

/** The elements a service's data names: the jaw, the teeth (old layout) and the implant system. */
export interface ServiceElements {
  jaw: Jaw | null;
  /** FDI numbers, upper jaw first; the current layout names only the jaw (the quantity counts). */
  teeth: number[];
  implantSystem: string;
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const joined = (...parts: unknown[]) => parts.map(text).filter(Boolean).join(' / ');

/** The teeth flagged in an old-layout jaw (14 booleans), as FDI numbers. */
function flaggedTeeth(flags: unknown, numbers: readonly number[]): number[] {
  if (!Array.isArray(flags) || flags.length !== TEETH_PER_JAW) return [];
  return numbers.filter((_, index) => flags[index] === true);
}

/**
 * The elements of a service from its data, in either layout; data that does not parse gives what
 * can be read (legacy records miss fields). An old-layout jaw that is not one of `JAWS` is taken
 * from the flagged teeth.
 */
export function serviceElements(service: { dataVersion: number; data: unknown }): ServiceElements {
  const data = record(service.data);
  if (!isOldServiceDataLayout(service.dataVersion)) {
    const system = record(data.implantSystem);
    return {
      jaw: isOneOf(JAWS, data.jaw) ? data.jaw : null,
      teeth: [],
      implantSystem: joined(system.manufactureName, system.systemName),
    };
  }
  const upper = flaggedTeeth(data.upperJaw, OLD_LAYOUT_TEETH.upper);
  const lower = flaggedTeeth(data.lowerJaw, OLD_LAYOUT_TEETH.lower);
  const fromTeeth: Jaw | null =
    upper.length && lower.length ? 'both' : upper.length ? 'upper' : lower.length ? 'lower' : null;
  return {
    jaw: isOneOf(JAWS, data.selectedJaw) ? data.selectedJaw : fromTeeth,
    teeth: [...upper, ...lower],
    implantSystem: joined(data.system, data.subSystem, data.implantModel),
  };
}

export const serviceManufactureSchema = z.object({
  /** The sleeve manufacturer chosen at checkout (its name in the sleeves settings), or null. */
  sleeveManufacturer: z.string().nullable(),
  sleeveQuantity: z.number().int().min(0),
  /** The product is sold with the surgical kit option (its sleeves from the manufacturer above). */
  kit: z.boolean(),
  jaw: z.enum(JAWS).nullable(),
  teeth: z.array(z.number().int()),
  implantSystem: z.string(),
});
export type ServiceManufacture = z.infer<typeof serviceManufactureSchema>;

/** What the case read knows about a service's manufacture: its product's options and the order. */
export interface ServiceManufactureFacts {
  productKind: number;
  enableKit: boolean;
  enableSleeve: boolean;
  /** The checkout's choice (`case_services.manufacture_data`), null when ordered without the shop. */
  manufactureData: { sleevesManufacture: number | null; sleevesQtd: number } | null;
  /** The name of `manufactureData.sleevesManufacture` (deleted manufacturers keep their name). */
  sleeveManufacturerName: string | null;
  dataVersion: number;
  data: unknown;
}

/**
 * What to manufacture for a service, or null for a planning service (nothing is made). Sleeves
 * count only on a product with the sleeve option; the manufacturer with the kit or sleeve option
 * (the checkout's rule, `priceCart`).
 */
export function serviceManufacture(facts: ServiceManufactureFacts): ServiceManufacture | null {
  if (isPlanningKind(facts.productKind)) return null;
  const chosen = facts.manufactureData;
  const takesManufacturer = facts.enableKit || facts.enableSleeve;
  return {
    sleeveManufacturer:
      takesManufacturer && chosen?.sleevesManufacture != null
        ? (facts.sleeveManufacturerName ?? null)
        : null,
    sleeveQuantity: facts.enableSleeve ? Math.max(0, chosen?.sleevesQtd ?? 0) : 0,
    kit: facts.enableKit,
    ...serviceElements(facts),
  };
}

// ───────────────────────────── delivery and money ─────────────────────────────

/** Only the payer, the case owner and staff see money (the transactions' rule). */
export function mayViewCaseMoney(
  viewer: CaseViewer,
  facts: { caseOwnerId: number; payerId: number },
): boolean {
  return transactionRelation(viewer, facts) !== null;
}

const SHIPPING_OPTION_MAX = SHIPPING_OPTIONS.motoboy;

export const caseDeliveryMoneySchema = z.object({
  currency: z.enum(CURRENCIES),
  /** The shipping fee charged, in minor units. */
  fee: z.number().int().min(0),
  /** The total of the order that chose this delivery, in minor units. */
  orderTotal: z.number().int().min(0),
  paymentMethod: z.enum(PAYMENT_METHODS),
});

export const caseDeliverySchema = z.object({
  /** 0 Sedex, 1 PAC, 2 local withdraw, 3 motoboy. */
  shipmentType: z.number().int().min(0).max(SHIPPING_OPTION_MAX),
  /** Where it goes (the case's address); null for a local withdraw. */
  address: addressSchema.nullable(),
  /** Days promised at checkout. */
  days: z.number().int().min(0),
  /** Present only for those who see the case's transactions. */
  money: caseDeliveryMoneySchema.optional(),
});
export type CaseDelivery = z.infer<typeof caseDeliverySchema>;

/** The order that chose the case's delivery: its first live transaction with a shipment. */
export interface DeliveryOrder {
  payerId: number;
  paymentMethod: string;
  currency: string;
  priceShipping: number;
  priceTotal: number;
  shipment: Shipment;
}

export const isLocalWithdraw = (shipmentType: number | null | undefined) =>
  shipmentType === SHIPPING_OPTIONS.localWithdraw;

/**
 * The case's delivery as this viewer may see it, or null when nothing ships. The address is the
 * case's own (the first order's delivery address, edited since by the owner or staff), else the
 * order's; none for a local withdraw. Money only for `mayViewCaseMoney`.
 */
export function caseDeliveryFor(
  viewer: CaseViewer,
  input: { caseOwnerId: number; caseAddress: Address | null; order: DeliveryOrder | null },
): CaseDelivery | null {
  const { order } = input;
  const type = order?.shipment.shipmentType;
  if (!order || type === undefined || type < 0 || type > SHIPPING_OPTION_MAX) return null;
  const delivery: CaseDelivery = {
    shipmentType: type,
    address: isLocalWithdraw(type) ? null : (input.caseAddress ?? order.shipment.address),
    days: order.shipment.shipmentOption?.days ?? 0,
  };
  if (
    mayViewCaseMoney(viewer, { caseOwnerId: input.caseOwnerId, payerId: order.payerId }) &&
    isOneOf(CURRENCIES, order.currency) &&
    isOneOf(PAYMENT_METHODS, order.paymentMethod)
  ) {
    delivery.money = {
      currency: order.currency as Currency,
      fee: order.priceShipping,
      orderTotal: order.priceTotal,
      paymentMethod: order.paymentMethod as PaymentMethod,
    };
  }
  return delivery;
}

// ───────────────────────────── dispatch ─────────────────────────────

/** A parcel handed to a carrier, or an order waiting at the lab for a local withdraw. */
export const DISPATCH_KINDS = ['shipped', 'readyForPickup'] as const;
export type DispatchKind = (typeof DISPATCH_KINDS)[number];
export const DISPATCH_TEXT_MAX = 60;

/** `POST /case/{id}/dispatch`. */
export const caseDispatchBodySchema = z.object({
  /** YYYY-MM-DD: the day the parcel left, or was ready for pickup. */
  date: z.iso.date(MESSAGE.invalid),
  carrier: z.string().trim().max(DISPATCH_TEXT_MAX, MESSAGE.max).optional(),
  trackingCode: z.string().trim().max(DISPATCH_TEXT_MAX, MESSAGE.max).optional(),
});
export type CaseDispatchBody = z.infer<typeof caseDispatchBodySchema>;

const userRefSchema = z.object({ id: z.number().int(), displayName: z.string() });

export const caseDispatchSchema = z.object({
  kind: z.enum(DISPATCH_KINDS),
  date: z.string(),
  carrier: z.string().nullable(),
  trackingCode: z.string().nullable(),
  recordedAt: z.string(),
  recordedBy: userRefSchema.nullable(),
});

/** A local withdraw is 'ready for pickup'; everything else ships. */
export const dispatchKindFor = (shipmentType: number | null | undefined): DispatchKind =>
  isLocalWithdraw(shipmentType) ? 'readyForPickup' : 'shipped';

/** The statuses in which a case's parcel may leave: made (finished) or closed by the client. */
export const DISPATCH_STATUSES = ['finished', 'closed'] as const;

/** What the dispatch and address rules read about a case. */
export interface CaseProductionFacts {
  caseStatus: string;
  caseArchived: boolean;
  /** The provider prints something of this case (there is a parcel). */
  hasPrintable: boolean;
  dispatched: boolean;
}

/**
 * Why a dispatch cannot be recorded now (whoever asks), or null: archived cases are frozen; once
 * only; the case must be made (finished or closed) and have something the provider made.
 */
export function dispatchRefusal(
  facts: CaseProductionFacts,
): 'archived' | 'alreadyDispatched' | 'notFinished' | 'nothingToDispatch' | null {
  if (facts.caseArchived) return 'archived';
  if (facts.dispatched) return 'alreadyDispatched';
  if (!isOneOf(DISPATCH_STATUSES, facts.caseStatus)) return 'notFinished';
  if (!facts.hasPrintable) return 'nothingToDispatch';
  return null;
}

/**
 * Who records a dispatch: staff (supervisor, admin), or a printer who sees the case (as printer,
 * member or planner) — the lab's shipping desk. Planners without the printer role, the owner and
 * the other readers do not.
 */
export function mayDispatchCase(viewer: CaseViewer, relation: CaseRelation | null): boolean {
  if (relation === 'staff') return true;
  return relation !== null && relation !== 'owner' && isPrinter(viewer.roles);
}

/** The production sheet: staff, a planner or printer who sees the case (not as its owner). */
export function mayReadProductionSheet(viewer: CaseViewer, relation: CaseRelation | null): boolean {
  if (relation === 'staff' || relation === 'planner' || relation === 'printer') return true;
  return relation === 'member' && (isPlanner(viewer.roles) || isPrinter(viewer.roles));
}

/**
 * The case's address (where the order goes): the owner or staff change it until the parcel has
 * left, at any status but cancelled, never on an archived case.
 */
export function mayEditCaseAddress(
  relation: CaseRelation | null,
  facts: CaseProductionFacts,
): boolean {
  return (
    (relation === 'owner' || relation === 'staff') &&
    !facts.caseArchived &&
    !facts.dispatched &&
    facts.caseStatus !== 'cancelled'
  );
}

/** The production operations the case view offers this caller now. */
export const CASE_PRODUCTION_ACTIONS = ['productionSheet', 'dispatch', 'editAddress'] as const;
export type CaseProductionAction = (typeof CASE_PRODUCTION_ACTIONS)[number];

export function caseProductionActions(
  viewer: CaseViewer,
  relation: CaseRelation | null,
  facts: CaseProductionFacts,
): CaseProductionAction[] {
  const allowed: Record<CaseProductionAction, boolean> = {
    productionSheet: mayReadProductionSheet(viewer, relation),
    dispatch: mayDispatchCase(viewer, relation) && dispatchRefusal(facts) === null,
    editAddress: mayEditCaseAddress(relation, facts),
  };
  return CASE_PRODUCTION_ACTIONS.filter((action) => allowed[action]);
}

/**
 * What is wrong with a dispatch of this kind (field → `errors` catalogue key), or null. A
 * shipment names its carrier; a pickup has none and no tracking code. The date is not after
 * tomorrow (`today` is the server's UTC date, YYYY-MM-DD: a day of slack for time zones).
 */
export function dispatchBodyProblems(
  body: CaseDispatchBody,
  kind: DispatchKind,
  today: string,
): Record<string, string> | null {
  const problems: Record<string, string> = {};
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000)
    .toISOString()
    .slice(0, 10);
  if (body.date > tomorrow) problems.date = MESSAGE.invalid;
  if (kind === 'shipped' && !body.carrier) problems.carrier = MESSAGE.required;
  if (kind === 'readyForPickup') {
    if (body.carrier) problems.carrier = MESSAGE.invalid;
    if (body.trackingCode) problems.trackingCode = MESSAGE.invalid;
  }
  return Object.keys(problems).length > 0 ? problems : null;
}
