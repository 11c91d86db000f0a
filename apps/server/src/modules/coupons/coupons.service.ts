import {
  ADMIN_PAGE_SIZE,
  normalizeCouponCode,
  type AdminCoupon,
  type CouponForm,
  type CouponListFilter,
  type CouponPage,
  type Coupon,
  type CouponTypeId,
} from '@dentflow/domain';
import type { AppContext, RequestMeta } from '../../context';
import type { DbOrTx } from '../../db/client';
import { AppError, validationError } from '../../http/app-error';
import { writeAudit } from '../audit';
import {
  addCouponUse,
  categoryExists,
  countCouponUsesByUser,
  findCouponByCode,
  findLiveCoupon,
  findLiveCouponForUpdate,
  insertCoupon,
  isCouponCodeTaken,
  isCouponCodeViolation,
  listCouponPage,
  liveProductExists,
  softDeleteCoupon,
  updateCoupon,
  userExists,
  type CouponRow,
  type CouponValues,
  type CouponWithUsers,
} from './coupons.repository';
import { isoOrNull } from '../../http/envelope';

/** A stored coupon as the domain's rules and the API know it (`name` is the stored code). */
export function couponOfRow(row: CouponRow): Coupon {
  return {
    id: row.id,
    name: row.code,
    bind2User: row.bind2User,
    bind2Product: row.bind2Product,
    bind2Category: row.bind2Category,
    maxUsage: row.maxUsage,
    used: row.used,
    coupomType: row.coupomType as CouponTypeId,
    value: row.value,
    oncePerUser: row.oncePerUser,
    applyOnManufactureService: row.applyOnManufactureService,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    deletedAt: isoOrNull(row.deletedAt),
    expireAt: isoOrNull(row.expireAt),
  };
}

/**
 * The coupon a code names, deleted or not (the domain's `couponRejection` says whether it
 * applies), or undefined. With `lock` the row stays locked until the transaction ends, so
 * concurrent orders count its uses one after the other.
 */
export function couponByCode(
  db: DbOrTx,
  code: string,
  options: { lock?: boolean } = {},
): Promise<CouponRow | undefined> {
  return findCouponByCode(db, code, options);
}

/** How many times the user's orders used the coupon (its once-per-user rule). */
export function couponUsesByUser(db: DbOrTx, couponId: number, userId: number): Promise<number> {
  return countCouponUsesByUser(db, couponId, userId);
}

/**
 * Counts an order's use of the coupon: `units` more used, and the use kept with the user and
 * the transaction that paid it (in the order's database transaction, the coupon row locked).
 */
export function recordCouponUse(
  db: DbOrTx,
  use: { couponId: number; userId: number; transactionId: number; units: number },
): Promise<void> {
  return addCouponUse(db, use);
}

const toAdminCoupon = (row: CouponWithUsers): AdminCoupon => ({
  ...couponOfRow(row),
  usersCount: row.usersCount,
});

/** An ISO date or date-time (`2026-12-31`, `2026-12-31T23:59:59.000Z`), else null. */
function parseExpiry(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())) return null;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The bound user, product and category must exist (a product also not deleted). A binding the
 * stored coupon already has is kept as it is, so a coupon whose product was deleted later can
 * still be edited.
 */
async function bindingErrors(
  db: DbOrTx,
  form: CouponForm,
  stored: CouponRow | undefined,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  const changed = (field: 'bind2User' | 'bind2Product' | 'bind2Category') =>
    form[field] !== null && form[field] !== stored?.[field];
  if (changed('bind2User') && !(await userExists(db, form.bind2User!))) {
    errors.bind2User = 'validation.invalid';
  }
  if (changed('bind2Product') && !(await liveProductExists(db, form.bind2Product!))) {
    errors.bind2Product = 'validation.invalid';
  }
  if (changed('bind2Category') && !(await categoryExists(db, form.bind2Category!))) {
    errors.bind2Category = 'validation.invalid';
  }
  return errors;
}

const codeTaken = () => new AppError(409, 'CODE_TAKEN', { name: 'api.CODE_TAKEN' });

/** Coupon administration (admin only, enforced by the routes' permission). */
export function createCouponsService(ctx: AppContext) {
  const { db } = ctx;

  async function requireCoupon(id: number): Promise<AdminCoupon> {
    const row = await findLiveCoupon(db, id);
    if (!row) throw new AppError(404, 'NOT_FOUND');
    return toAdminCoupon(row);
  }

  return {
    /** One page of the coupons of a filter, newest first; `q` matches the code in any case. */
    async query(
      filter: CouponListFilter,
      page: number,
      q: string | undefined,
    ): Promise<CouponPage> {
      const { rows, total } = await listCouponPage(db, {
        filter,
        q: q?.trim() ?? '',
        page,
        pageSize: ADMIN_PAGE_SIZE,
        now: new Date(),
      });
      return { items: rows.map(toAdminCoupon), total, page, pageSize: ADMIN_PAGE_SIZE };
    },

    get: requireCoupon,

    /**
     * Creates (`id` 0) or edits a coupon. The code is stored upper-case and must be free among
     * all coupons, deleted ones included (a deleted code stays refused at registration).
     * `used` belongs to the checkout and is never written here.
     */
    async save(
      actorUserId: number,
      id: number,
      form: CouponForm,
      meta: RequestMeta,
    ): Promise<AdminCoupon> {
      let expireAt: Date | null = null;
      if (form.expireAt !== null) {
        expireAt = parseExpiry(form.expireAt);
        if (!expireAt) throw validationError({ expireAt: 'validation.invalid' });
      }
      const code = normalizeCouponCode(form.name);
      const values: CouponValues = {
        code,
        coupomType: form.coupomType,
        value: form.value,
        active: form.active,
        maxUsage: form.maxUsage,
        bind2User: form.bind2User,
        bind2Product: form.bind2Product,
        bind2Category: form.bind2Category,
        oncePerUser: form.oncePerUser,
        applyOnManufactureService: form.applyOnManufactureService,
        expireAt,
      };
      let savedId: number;
      try {
        savedId = await db.transaction(async (tx) => {
          const stored = id === 0 ? undefined : await findLiveCouponForUpdate(tx, id);
          if (id !== 0 && !stored) throw new AppError(404, 'NOT_FOUND');
          const errors = await bindingErrors(tx, form, stored);
          if (Object.keys(errors).length > 0) throw validationError(errors);
          if (await isCouponCodeTaken(tx, code, stored?.id ?? null)) throw codeTaken();
          const target = stored ? stored.id : (await insertCoupon(tx, values)).id;
          if (stored) await updateCoupon(tx, stored.id, values);
          await writeAudit(tx, {
            actorUserId,
            action: stored ? 'coupon.update' : 'coupon.create',
            entity: 'coupon',
            entityId: target,
            details: { code },
            ip: meta.ip,
          });
          return target;
        });
      } catch (error) {
        // Two saves of the same new code at once: the unique index refuses the second.
        if (isCouponCodeViolation(error)) throw codeTaken();
        throw error;
      }
      return requireCoupon(savedId);
    },

    /** Soft delete: hidden from the admin and unusable, kept on old transactions. */
    async remove(actorUserId: number, id: number, meta: RequestMeta): Promise<{ id: number }> {
      await db.transaction(async (tx) => {
        if (!(await softDeleteCoupon(tx, id))) throw new AppError(404, 'NOT_FOUND');
        await writeAudit(tx, {
          actorUserId,
          action: 'coupon.delete',
          entity: 'coupon',
          entityId: id,
          ip: meta.ip,
        });
      });
      return { id };
    },
  };
}
export type CouponsService = ReturnType<typeof createCouponsService>;
