import {
  DISPATCH_KINDS,
  allCaseChecksPass,
  availableCaseActions,
  attachmentActorFor,
  caseEventDetailFor,
  fileEventDetailFor,
  caseDeliveryFor,
  caseProductionActions,
  foldText,
  hasLiveTransaction,
  isOneOf,
  onlyPaymentFails,
  servicePaymentState,
  isServiceDataValid,
  mayChangeCurrencyOfCase,
  maySolveReview,
  serviceManufacture,
  type CaseCounts,
  type CaseDetail,
  type CaseEvent,
  type CaseListFilter,
  type CasePage,
  type CaseSearchScope,
  type CasePreview,
  type CaseServiceDetail,
  type Currency,
  type Language,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import { findUsersByIds } from '../users';
import { AppError } from '../../http/app-error';
import { caseAccessOf, requireCaseAccess } from './case-access.service';
import { listCaseTransactionPayers } from './cases.repository';
import {
  countCasesByFilter,
  listCasePage,
  searchArchivedCases,
  type ArchiveQuery,
  type CasePreviewRow,
} from './cases-list.repository';
import {
  listCaseEvents,
  prepareCaseDetail,
  type CaseDetailService,
} from './case-detail.repository';
import { isoOrNull } from '../../http/envelope';
import {
  checksOf,
  isAwaitingApprovalRequest,
  paymentFactsOf,
  productionFactsOf,
  viewerOf,
  type CaseCaller as Caller,
} from './case-rule-facts';

/** History detail keys holding a user id, and the key their current name is answered under. */
const NAMED_USERS = [
  ['userId', 'userName'],
  ['plannerId', 'plannerName'],
] as const;

/** A service as the case page shows it; field by field (no rest or spread: every case read maps them). */
function toServiceDetail(s: CaseDetailService): CaseServiceDetail {
  return {
    id: s.id,
    productId: s.productId,
    serviceId: s.serviceId,
    productCategoryId: s.productCategoryId,
    productName: s.productName,
    productKind: s.productKind,
    qtdOption: s.qtdOption,
    qtdMax: s.qtdMax,
    manufactureTime: s.manufactureTime,
    quantity: s.quantity,
    printableProduct: s.printableProduct,
    planner: s.planner,
    approveRequestAt: isoOrNull(s.approveRequestAt),
    approveAt: isoOrNull(s.approveAt),
    paid: s.paidAt !== null,
    payment: servicePaymentState(paymentFactsOf(s)),
    dataVersion: s.dataVersion,
    data: s.data ?? null,
    dataValid: isServiceDataValid(s),
    manufacture: serviceManufacture({
      productKind: s.productKind,
      enableKit: s.production.enableKit,
      enableSleeve: s.production.enableSleeve,
      manufactureData: s.production.manufactureData,
      sleeveManufacturerName: s.production.sleeveManufacturerName,
      dataVersion: s.dataVersion,
      data: s.data,
    }),
  };
}

/**
 * The reads of cases: one case as its caller sees it (with the actions they may take), the
 * lists, the archive search, the counts and the history.
 */
export function createCaseReads(ctx: Pick<AppContext, 'db' | 'config'>) {
  const { db } = ctx;

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
    // The domain's checks as they are: its keys are what the case page lists and labels.
    const checks = checksOf({
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
      services: services.map(toServiceDetail),
      users: found.members,
      reviews: found.reviews.map((r) => ({
        ...r,
        createdAt: r.createdAt.toISOString(),
        solvedAt: isoOrNull(r.solvedAt),
        canSolve: r.solvedAt === null && maySolveReview(viewerOf(caller), access.relation, row, r),
      })),
      checks,
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

  return {
    /** The case as this caller sees it, in one statement; 404 when hidden or missing. */
    readCase,

    async list(
      caller: Caller,
      filter: CaseListFilter,
      page: number,
      query: { q?: string | undefined; pageSize: number; scope?: CaseSearchScope },
      language: Language,
    ): Promise<CasePage> {
      const q = query.q ? foldText(query.q) : undefined;
      const { rows, total, totalCapped } = await listCasePage(db, viewerOf(caller), {
        // A search may look across every list; without a search text the list is its filter's.
        filter: q && query.scope === 'all' ? 'all' : filter,
        page,
        pageSize: query.pageSize,
        q: q || undefined,
        totalCap: ctx.config.caseSearchTotalCap,
        language,
      });
      return {
        items: rows.map(toPreview),
        total,
        ...(totalCapped ? { totalCapped } : {}),
        page,
        pageSize: query.pageSize,
      };
    },

    counts(caller: Caller): Promise<CaseCounts> {
      return countCasesByFilter(db, viewerOf(caller));
    },

    async archiveSearch(
      caller: Caller,
      page: number,
      query: Omit<ArchiveQuery, 'page' | 'language'>,
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
     * transaction (the domain's `caseEventDetailFor`, the rule of the transactions list). A
     * member's or planner's event names them (`userName`, `plannerName`) as they are called now.
     */
    async history(caller: Caller, caseId: number): Promise<CaseEvent[]> {
      const access = await requireCaseAccess(db, caller, caseId);
      const events = await listCaseEvents(db, caseId);
      const userIds = events.flatMap((e) => [
        e.actorId,
        ...NAMED_USERS.map(([key]) => e.detail[key]),
      ]);
      const ids = [...new Set(userIds.filter((id) => typeof id === 'number'))];
      const names = new Map((await findUsersByIds(db, ids)).map((u) => [u.id, u.displayName]));
      const withNames = (detail: Record<string, unknown>) => {
        const named = { ...detail };
        for (const [key, nameKey] of NAMED_USERS) {
          const name = typeof detail[key] === 'number' ? names.get(detail[key]) : undefined;
          if (name) named[nameKey] = name;
        }
        return named;
      };
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
      const actor = attachmentActorFor(access);
      return events.map((e) => ({
        id: e.id,
        caseId: e.caseId,
        at: e.at.toISOString(),
        actor:
          e.actorId === null ? null : { id: e.actorId, displayName: names.get(e.actorId) ?? '' },
        action: e.action,
        fromStatus: e.fromStatus,
        toStatus: e.toStatus,
        detail: withNames(
          fileEventDetailFor(actor, {
            ...e,
            detail: caseEventDetailFor(caller, e, facts(e.detail)),
          }),
        ),
      }));
    },
  };
}
