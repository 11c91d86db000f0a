import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { DataAddress, DataCapabilities, DataInfo } from '@dentflow/domain';
import { coupons } from './catalog';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  modifiedAt: timestamp('modified_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};

/** User profile: general data as columns (searched, unique), the rest as JSON documents. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Always stored lower-cased; unique. */
    email: text('email').notNull(),
    /** Kept as typed; unique without regard to case (index on lower()). */
    nickName: text('nick_name').notNull(),
    fname: text('fname').notNull(),
    lname: text('lname').notNull(),
    displayName: text('display_name').notNull(),
    avatar: text('avatar'),
    passwordHash: text('password_hash').notNull(),
    roles: jsonb('roles').$type<string[]>().notNull().default([]),
    internal: boolean('internal').notNull().default(false),
    dataInfo: jsonb('data_info').$type<DataInfo>().notNull(),
    dataAddress: jsonb('data_address').$type<DataAddress>().notNull(),
    dataCapabilities: jsonb('data_capabilities').$type<DataCapabilities>().notNull(),
    /**
     * The notification event types the user also wants by email (profile → Notifications); null:
     * the platform's defaults (`DEFAULT_EMAIL_NOTIFICATIONS`).
     */
    emailNotifications: jsonb('email_notifications').$type<number[]>(),
    /** The coupon a user registered with (`/register/{coupom}`), kept for the shop. */
    couponId: integer('coupon_id').references(() => coupons.id, { onDelete: 'set null' }),
    verifiedAt: timestamp('verified_at', { withTimezone: true, mode: 'date' }),
    /** Deleted by an admin or by the user: personal data anonymized, sessions revoked. */
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_nick_name_lower_unique').on(sql`lower(${t.nickName})`),
  ],
);

/**
 * Opaque refresh tokens, stored as sha256 hashes. Each login starts a family; every refresh
 * rotates (marks this row rotated, inserts the next one); presenting a rotated token again
 * revokes the whole family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    remember: boolean('remember').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_unique').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

export const ACCOUNT_TOKEN_PURPOSES = ['verify_account', 'reset_password'] as const;
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number];

/** Single-use tokens sent by mail (account verification, password reset), stored hashed. */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ACCOUNT_TOKEN_PURPOSES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_unique').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.purpose),
  ],
);

/** Who did what, written in the same transaction as the change. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
  },
  (t) => [index('audit_log_entity_idx').on(t.entity, t.entityId)],
);

/** A partner (radiology centre, lab) linked by an admin to a clinic: the clinic may add it to cases. */
export const clinicPartners = pgTable(
  'clinic_partners',
  {
    id: serial('id').primaryKey(),
    clinicId: integer('clinic_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partnerId: integer('partner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('clinic_partners_unique').on(t.clinicId, t.partnerId)],
);

/**
 * An instructor's invitation of a doctor by email: the mailed link carries a token (only its hash
 * is stored); registering or accepting with it links the student (`instructorId`).
 */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    instructorId: integer('instructor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    language: text('language').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    acceptedBy: integer('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('invitations_token_unique').on(t.tokenHash),
    index('invitations_instructor_idx').on(t.instructorId),
  ],
);
