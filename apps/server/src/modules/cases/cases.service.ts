import {
  DEADLINE_NEAR_MS,
  DEADLINE_SETTLED_STATUSES,
  REVIEW_REASONS,
  canArchive,
  caseListGroup,
  dispatchBodyProblems,
  dispatchKindFor,
  dispatchRefusal,
  isArchived,
  hasLiveTransaction,
  isLiveTransactionStatus,
  isOldServiceDataLayout,
  mayNameTeeth,
  MESSAGE,
  isPlanner,
  mayAddCaseUser,
  mayChangeCaseCurrency,
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
  unarchive,
  type AddServiceBody,
  type CaseDetail,
  type CaseDispatchBody,
  type CaseMoveBody,
  type CaseOperation,
  type CaseRecordFacts,
  type CaseSetBody,
  type Currency,
  type Language,
  type NewCaseBody,
  type ServiceDataBody,
} from '@dentflow/domain';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { findUserById } from '../users';
import { AppError, validationError, zodIssueFields } from '../../http/app-error';
import { accountOfUser } from '../../security/password-checks';
import { isPartnerLinkedToClinic } from '../partners';
import { lockCaseAccess, requireCaseAccess, type CaseAccess } from './case-access.service';
import {
  deleteCaseService,
  deleteCaseUser,
  ensureCaseUser,
  findCasesWithDeadlineBefore,
  findOpenCaseReview,
  hasOpenReview,
  insertCaseReview,
  listCaseTransactionStatuses,
  setCaseDispatch,
  solveCaseReview,
  updateCase,
  updateCaseService,
  updatePatient,
  upsertCaseUser,
  type CaseRow,
} from './cases.repository';
import {
  findCase,
  findDeliveryOrder,
  listCaseMembers,
  type CaseServiceWithProduct,
} from './case-detail.repository';
import { findCaseVisibilityFacts } from './case-visibility.repository';
import {
  advancePaidCase,
  addServicesToCase,
  openCase,
  recordEventsAndRefresh,
  type EventDraft,
} from './case-lifecycle.service';
import { MOVE_EFFECTS, MOVE_REQUIRED_FIELDS, type ApprovalRecorder } from './case-move-effects';
import { createCaseReads } from './case-reads.service';
import {
  isAwaitingApprovalRequest,
  productionFactsOf,
  viewerOf,
  type CaseCaller as Caller,
} from './case-rule-facts';

/**
 * The cases service behind the routes: every change of a case locks its row, checks who may make
 * it, writes it with its history rows and notifications, and answers the case as the caller now
 * sees it. The reads are in `case-reads.service.ts`, the moves' effects in `case-move-effects.ts`,
 * what other modules call in `case-lifecycle.service.ts`.
 */
export interface CasesServiceOptions {
  /** Records what an `approve` move approved (the approvals module, composed in app.ts). */
  approvals?: ApprovalRecorder;
}

export function createCasesService(ctx: AppContext, options: CasesServiceOptions = {}) {
  const { db } = ctx;
  const approvals = options.approvals ?? null;

  /** The next `modifiedAt`: now, but always after the stored one so a stale save is detected. */
  const stamp = (previous: Date) => new Date(Math.max(Date.now(), previous.getTime() + 1));

  const { readCase, ...caseReads } = createCaseReads(ctx);

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
    work: (
      tx: DbOrTx,
      access: CaseAccess,
      row: CaseRow,
      now: Date,
      /** A new status to write with the derived columns (one update of the case). */
      next: { caseStatus?: string },
      /** The case's services as the lock read them (product names in `language`). */
      services: CaseServiceWithProduct[],
    ) => Promise<EventDraft[]>,
  ): Promise<CaseDetail> {
    const published = await db.transaction(async (tx) => {
      const locked = await lockCaseAccess(tx, caller, caseId, language);
      if (!locked) throw new AppError(404, 'NOT_FOUND');
      const { access, row, transactionStatuses, services } = locked;
      const now = stamp(row.modifiedAt);
      const next: { caseStatus?: string } = {};
      const drafts = await work(tx, access, row, now, next, services);
      const done = await recordEventsAndRefresh(tx, caseId, caller, drafts, now, next);
      const { messages, after } = done;
      // No change here creates or changes a transaction: the statuses read under the lock hold.
      const state = after && { ...after, transactionStatuses };
      messages.push(...(await advancePaidCase(tx, caseId, caller.userId, now, state)));
      return messages;
    });
    ctx.caseEvents.publish(published);
    // A change can end the caller's view of the case (e.g. the last planner removed): 404 then.
    return readCase(caller, caseId, language);
  }

  /** The case's service `serviceId` among those the lock read: 404 when the case has none. */
  function ownedService(services: readonly CaseServiceWithProduct[], serviceId: number) {
    const service = services.find((s) => s.id === serviceId);
    if (!service) throw new AppError(404, 'NOT_FOUND');
    return service;
  }

  return {
    async create(caller: Caller, body: NewCaseBody, language: Language): Promise<CaseDetail> {
      const { caseId, messages } = await db.transaction((tx) =>
        openCase(tx, caller.userId, body, new Date()),
      );
      ctx.caseEvents.publish(messages);
      return readCase(caller, caseId, language);
    },

    ...caseReads,

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
      return change(caller, caseId, language, async (tx, access, row, _now, _next, services) => {
        authorize('edit', caller, access, row);
        const service = ownedService(services, serviceId);
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
      return change(caller, caseId, language, async (tx, access, row, _now, _next, services) => {
        authorize('serviceData', caller, access, row);
        const service = ownedService(services, serviceId);
        const teeth = (parsed.data as { teeth?: number[] }).teeth;
        if (!mayNameTeeth(service, teeth)) throw validationError({ 'data.teeth': MESSAGE.invalid });
        await updateCaseService(tx, serviceId, { dataVersion: body.dataVersion, data: body.data });
        return [{ action: 'serviceData', detail: { serviceId, dataVersion: body.dataVersion } }];
      });
    },

    async move(caller: Caller, caseId: number, body: CaseMoveBody, language: Language) {
      const { action } = body;
      const text = body.text?.trim() ?? '';
      const missing = MOVE_REQUIRED_FIELDS[action]?.(body, text) ?? {};
      if (Object.keys(missing).length > 0) throw validationError(missing);
      if (action === 'approve') {
        // Checked before the row lock: argon2 is slow on purpose and must not hold the case.
        const access = await requireCaseAccess(db, caller, caseId);
        if (!mayAttemptCaseAction(action, viewerOf(caller), access.relation)) {
          throw new AppError(403, 'FORBIDDEN');
        }
        const user = await findUserById(db, caller.userId);
        if (!user) throw new AppError(400, 'WRONG_PASSWORD');
        const right = await ctx.passwordChecks.verify(
          { account: accountOfUser(caller.userId), address: caller.ip },
          user.passwordHash,
          body.password ?? '',
        );
        if (!right) throw new AppError(400, 'WRONG_PASSWORD');
        await approvals?.prepare(caseId);
      }
      return change(caller, caseId, language, async (tx, access, row, now, next, services) => {
        const viewer = viewerOf(caller);
        if (!mayAttemptCaseAction(action, viewer, access.relation)) {
          throw new AppError(403, 'FORBIDDEN');
        }
        if (isArchived(row)) throw new AppError(409, 'CASE_ARCHIVED');
        const to = nextCaseStatus(row.caseStatus, action, {
          hasPrintableService: services.some((s) => s.printableProduct),
          checksPass: true,
          hasServicesToRequest: services.some(isAwaitingApprovalRequest),
        });
        if (!to) throw new AppError(409, 'INVALID_TRANSITION');
        const from = row.caseStatus;
        const detail: Record<string, unknown> = {};
        if (text) detail.text = text;
        const effect = MOVE_EFFECTS[action];
        const outcome = effect
          ? await effect({
              tx,
              caller,
              access,
              caseId,
              row,
              services,
              body,
              text,
              now,
              detail,
              language,
              approvals,
            })
          : undefined;
        const reached: string = outcome === 'stay' ? from : to;
        if (reached !== from) next.caseStatus = reached;
        return [{ action, fromStatus: from, toStatus: reached, detail }];
      });
    },

    addUser(
      caller: Caller,
      caseId: number,
      body: { userId: number; triggerNotification: boolean },
      language: Language,
    ) {
      return change(caller, caseId, language, async (tx, access, row) => {
        const user = await findUserById(tx, body.userId);
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
        // Adding a member again only switches their notifications: the history says so.
        const known = (await listCaseMembers(tx, caseId)).some((m) => m.userId === body.userId);
        await upsertCaseUser(tx, { caseId, ...body, viaRole: membershipRoleOfAddition(addition) });
        return [
          known
            ? {
                action: 'userNotificationsSet',
                detail: { userId: body.userId, triggerNotification: body.triggerNotification },
              }
            : { action: 'userAdded', detail: { userId: body.userId } },
        ];
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
      return change(caller, caseId, language, async (tx, access, row, _now, _next, services) => {
        authorize('manageUsers', caller, access, row);
        const planner = await findUserById(tx, body.plannerId);
        if (!planner || !planner.verifiedAt || !isPlanner(planner.roles)) {
          throw validationError({ plannerId: 'validation.invalid' });
        }
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
          const reviewOpened = { reasonId: REVIEW_REASONS.planningDeadlineNear };
          const drafts = [{ action: 'reviewOpened', detail: reviewOpened }];
          return (await recordEventsAndRefresh(tx, id, null, drafts, at)).messages;
        });
        if (messages.length > 0) marked.push(id);
        ctx.caseEvents.publish(messages);
      }
      return marked;
    },
  };
}

export type CasesService = ReturnType<typeof createCasesService>;
