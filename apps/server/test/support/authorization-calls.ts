import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { cases, coupons, productCategories, users } from '../../src/db/schema';
import { DEMO_PASSWORD } from '../../src/db/seed';
import { completeServiceData, productIdByCode } from './cases-fixtures';
import { INVOICE_CUSTOMER, pdfBytes, receiptForm } from './payments-fixtures';
import { cartItem } from './shop-fixtures';
import { multipartBody, type Announced } from './storage-fixtures';
import {
  api,
  avatarForm,
  insertUser,
  must,
  productCodeOf,
  productForm,
  PIN_BODY,
  type RecordIds,
  unique,
  type World,
} from './authorization-fixtures';
import { NO_RECORD, type MatrixCaller } from './authorization-matrix';
import { json, type Session } from './test-app';

/**
 * How the authorization matrix calls each route: the record kind its row is about, and one
 * request with a valid body (so the answer is about authorization, not validation). Keyed like
 * the document's rows, `METHOD /path/{param}`.
 */

export interface Request {
  url: string;
  payload?: object | string | Buffer;
  headers?: Record<string, string>;
}

export interface CallContext {
  world: World;
  caller: MatrixCaller;
  /** The caller's session; null for anonymous. */
  session: Session | null;
}

export interface RouteCall {
  /** The record kind; the document's `record` column must name the same. */
  record: string;
  /**
   * A successful answer changes the record in a way later calls would see (a move, a
   * deletion…): each cell the table expects to succeed (2xx) gets a record of its own.
   */
  fresh?: boolean;
  /**
   * The cells run one at a time: the request reads state another cell changes, or fresh records
   * share a parent another cell's fresh record would disturb.
   */
  sequential?: boolean;
  /** The call ends the caller's sessions when it passes: sign the caller in again after it. */
  endsSessions?: boolean;
  request(record: RecordIds, context: CallContext): Request | Promise<Request>;
}

const get = (url: string) => () => ({ url });
const post = (url: string, payload: object) => () => ({ url, payload });

/** The body a settings POST accepts: what the admin's GET answers (saved unchanged). */
const settingsEcho = (section: string, drop: string[] = []) => ({
  record: NO_RECORD,
  async request(_record: RecordIds, { world }: CallContext): Promise<Request> {
    const url = `/api/v1/settings/${section}`;
    const current = json<{ obj: Record<string, unknown> }>(
      await must(api(world.app)(world.sessions.admin, 'GET', url)),
    ).obj;
    for (const key of drop) delete current[key];
    return { url, payload: current };
  },
});

const guideItem = async (world: World) =>
  cartItem(world.db, 'PLAN-GUIDE', {
    planningExtraData: { patient: { fname: 'Ana', lname: 'Lima' } },
  });

export const ROUTE_CALLS: Record<string, RouteCall> = {
  'GET /api/health': { record: NO_RECORD, request: get('/api/health') },
  'GET /api/ready': { record: NO_RECORD, request: get('/api/ready') },

  // ── auth ──
  'POST /api/v1/auth/register': {
    record: NO_RECORD,
    request: () => {
      const nick = unique('matrix');
      return {
        url: '/api/v1/auth/register',
        payload: {
          email: `${nick}@matrix.test`,
          password: 'Matrix-Passw0rd',
          fname: 'Matrix',
          lname: 'Register',
          nickName: nick,
          terms: true,
        },
      };
    },
  },
  'POST /api/v1/auth/verifyAccount': {
    record: NO_RECORD,
    request: post('/api/v1/auth/verifyAccount', { token: 'A'.repeat(43) }),
  },
  'POST /api/v1/auth/resendVerification': {
    record: NO_RECORD,
    request: post('/api/v1/auth/resendVerification', { login: 'doctor' }),
  },
  'POST /api/v1/auth/login': {
    record: NO_RECORD,
    // Each caller signs in as its own account (anonymous: the doctor's).
    request: (_r, { caller }) => ({
      url: '/api/v1/auth/login',
      payload: { login: caller === 'anonymous' ? 'doctor' : caller, password: DEMO_PASSWORD },
    }),
  },
  'POST /api/v1/auth/refresh_token': {
    record: 'session',
    fresh: true,
    request: (r) => ({
      url: '/api/v1/auth/refresh_token',
      payload: { refresh_token: r.refreshToken },
    }),
  },
  'DELETE /api/v1/auth/logout': {
    record: 'session',
    fresh: true,
    request: (r) => ({ url: '/api/v1/auth/logout', payload: { refresh_token: r.refreshToken } }),
  },
  'POST /api/v1/auth/forgotPassword': {
    record: NO_RECORD,
    request: post('/api/v1/auth/forgotPassword', { email: 'doctor@dentflow.local' }),
  },
  'POST /api/v1/auth/resetPassword': {
    record: NO_RECORD,
    request: post('/api/v1/auth/resetPassword', {
      token: 'A'.repeat(43),
      password: 'Matrix-Passw0rd',
      confirmPassword: 'Matrix-Passw0rd',
    }),
  },

  // ── profile ──
  // The second step of a login needs the challenge its password step gave: a made-up one is
  // refused like no session (401) for everyone.
  'POST /api/v1/auth/twoFactor/verify': {
    record: NO_RECORD,
    request: post('/api/v1/auth/twoFactor/verify', {
      challenge: 'not-a-challenge',
      code: '000000',
    }),
  },
  'POST /api/v1/auth/twoFactor/setup': {
    record: NO_RECORD,
    request: post('/api/v1/auth/twoFactor/setup', { challenge: 'not-a-challenge' }),
  },
  'POST /api/v1/auth/twoFactor/enrol': {
    record: NO_RECORD,
    request: post('/api/v1/auth/twoFactor/enrol', { challenge: 'not-a-challenge', code: '000000' }),
  },
  // Admins and supervisors signed in with the second factor they had to enrol; the others have
  // none: a new secret is theirs to ask for, a wrong code is refused, nothing is there to turn off.
  'GET /api/v1/profile/twoFactor/get': {
    record: NO_RECORD,
    request: get('/api/v1/profile/twoFactor/get'),
  },
  'POST /api/v1/profile/twoFactor/setup': {
    record: NO_RECORD,
    request: post('/api/v1/profile/twoFactor/setup', {}),
  },
  'POST /api/v1/profile/twoFactor/enable': {
    record: NO_RECORD,
    request: post('/api/v1/profile/twoFactor/enable', { code: '000000' }),
  },
  'POST /api/v1/profile/twoFactor/disable': {
    record: NO_RECORD,
    request: post('/api/v1/profile/twoFactor/disable', { password: DEMO_PASSWORD, code: '000000' }),
  },
  'POST /api/v1/profile/twoFactor/recoveryCodes': {
    record: NO_RECORD,
    request: post('/api/v1/profile/twoFactor/recoveryCodes', { code: '000000' }),
  },
  'GET /api/v1/profile/get': { record: NO_RECORD, request: get('/api/v1/profile/get') },
  'POST /api/v1/profile/set': {
    record: NO_RECORD,
    request: post('/api/v1/profile/set', {}),
  },
  'POST /api/v1/profile/verifyNickname': {
    record: NO_RECORD,
    request: post('/api/v1/profile/verifyNickname', { nickname: 'matrixfree' }),
  },
  'POST /api/v1/profile/updatePassword': {
    record: NO_RECORD,
    // The same password again: the change passes and every account keeps its password.
    request: post('/api/v1/profile/updatePassword', {
      currentPassword: DEMO_PASSWORD,
      newPassword: DEMO_PASSWORD,
      confirmPassword: DEMO_PASSWORD,
    }),
  },
  'GET /api/v1/profile/announcement': {
    record: NO_RECORD,
    request: get('/api/v1/profile/announcement'),
  },
  // No announcement is active in the matrix: any id is refused as not found.
  'POST /api/v1/profile/announcement/{id}/dismiss': {
    record: NO_RECORD,
    request: post('/api/v1/profile/announcement/999999/dismiss', {}),
  },
  'GET /api/v1/profile/list/announcement': {
    record: NO_RECORD,
    request: get('/api/v1/profile/list/announcement'),
  },
  'POST /api/v1/profile/announcement': {
    record: NO_RECORD,
    request: post('/api/v1/profile/announcement', {
      active: false,
      texts: {
        en: { title: 'Matrix', body: 'An inactive announcement' },
        ptBR: { title: '', body: '' },
        es: { title: '', body: '' },
      },
    }),
  },
  'GET /api/v1/profile/getInstructor': {
    record: NO_RECORD,
    request: get('/api/v1/profile/getInstructor'),
  },
  'GET /api/v1/metadata/list/serviceData/subsystem': {
    record: NO_RECORD,
    request: get('/api/v1/metadata/list/serviceData/subsystem'),
  },
  'GET /api/v1/profile/export': { record: NO_RECORD, request: get('/api/v1/profile/export') },
  'POST /api/v1/profile/delete': {
    record: NO_RECORD,
    // A wrong password: refused after authorization, and nobody's account goes.
    request: post('/api/v1/profile/delete', { password: 'not-the-password' }),
  },
  'POST /api/v1/profile/avatar': {
    record: NO_RECORD,
    request: async () => {
      const form = await avatarForm();
      return { url: '/api/v1/profile/avatar', payload: form.payload, headers: form.headers };
    },
  },
  'GET /api/v1/profile/avatar/{userId}/{name}': {
    record: 'avatar',
    request: (r) => ({ url: `/api/v1/profile/avatar/${r.userId}/${r.name}` }),
  },
  'GET /api/v1/profile/notifications': {
    record: NO_RECORD,
    request: get('/api/v1/profile/notifications'),
  },
  'POST /api/v1/profile/notifications': {
    record: NO_RECORD,
    request: post('/api/v1/profile/notifications', { eventTypes: [] }),
  },
  'GET /api/v1/profile/invitations': {
    record: NO_RECORD,
    request: get('/api/v1/profile/invitations'),
  },
  'POST /api/v1/profile/invitations/{id}/accept': {
    record: 'invitation to me',
    fresh: true,
    request: (r) => ({ url: `/api/v1/profile/invitations/${r.invitationId}/accept` }),
  },
  'GET /api/v1/profile/instructor': {
    record: NO_RECORD,
    request: get('/api/v1/profile/instructor'),
  },
  'GET /api/v1/profile/partnerLinks': {
    record: NO_RECORD,
    request: get('/api/v1/profile/partnerLinks'),
  },
  'POST /api/v1/profile/leaveInstructor': {
    record: NO_RECORD,
    // Each caller is first made the student of an instructor of its own, so every role can leave.
    // The demo doctor's own link ends here too: the row is the table's last.
    request: async (_r, { world, caller }) => {
      const instructorId = await insertUser(world.db, ['instructor']);
      if (caller !== 'anonymous') {
        const session = world.sessions[caller];
        await world.db
          .update(users)
          .set({
            dataCapabilities: sql`${users.dataCapabilities} || ${JSON.stringify({ instructorId })}::jsonb`,
          })
          .where(eq(users.id, session.profile.id));
      }
      return { url: '/api/v1/profile/leaveInstructor', payload: { instructorId } };
    },
  },
  'POST /api/v1/profile/acceptInvitation': {
    record: 'invitation link',
    fresh: true,
    request: (r) => ({ url: '/api/v1/profile/acceptInvitation', payload: { token: r.token } }),
  },

  // ── shop ──
  'GET /api/v1/shop/queryAddress/{zipcode}': {
    record: NO_RECORD,
    request: get('/api/v1/shop/queryAddress/01310100'),
  },
  'POST /api/v1/shop/quote': {
    record: 'case',
    request: async (r, { world }) => ({
      url: '/api/v1/shop/quote',
      payload: {
        caseId: r.caseId,
        items: [await guideItem(world)],
        shipment: null,
        coupon: null,
        paymentMethod: null,
        currency: 'BRL',
      },
    }),
  },
  'POST /api/v1/shop/checkout': {
    record: 'case',
    fresh: true,
    request: async (r, { world }) => ({
      url: '/api/v1/shop/checkout',
      payload: {
        caseId: r.caseId,
        items: [await guideItem(world)],
        shipment: null,
        coupon: null,
        paymentMethod: 'pix',
        currency: 'BRL',
        idempotencyKey: randomUUID(),
      },
    }),
  },
  'GET /api/v1/products/coupom/lookup/{code}': {
    record: 'coupon code',
    request: (r) => ({ url: `/api/v1/products/coupom/lookup/${r.code}` }),
  },
  'GET /api/v1/shop/fetchSleeves': { record: NO_RECORD, request: get('/api/v1/shop/fetchSleeves') },
  'POST /api/v1/shop/fetchAddress': {
    record: NO_RECORD,
    request: post('/api/v1/shop/fetchAddress', {}),
  },
  'GET /api/v1/shop/getShippingPrice/{zipcode}': {
    record: NO_RECORD,
    request: get('/api/v1/shop/getShippingPrice/01310100?currency=BRL'),
  },
  'GET /api/v2/shop/products': { record: NO_RECORD, request: get('/api/v2/shop/products') },

  // ── cases ──
  'POST /api/v1/case/new': {
    record: NO_RECORD,
    request: post('/api/v1/case/new', { patient: { fname: 'Matrix', lname: 'Patient' } }),
  },
  'GET /api/v1/case/list/{filter}/{page}': {
    record: NO_RECORD,
    request: get('/api/v1/case/list/new/0'),
  },
  'GET /api/v1/case/counts': { record: NO_RECORD, request: get('/api/v1/case/counts') },
  'GET /api/v1/case/archive/{page}': { record: NO_RECORD, request: get('/api/v1/case/archive/0') },
  'GET /api/v1/case/{id}/get': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/get` }),
  },
  'GET /api/v1/case/{caseId}/approvals': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/approvals` }),
  },
  'GET /api/v1/approval/{id}/certificate': {
    record: 'approval record',
    request: (r) => ({ url: `/api/v1/approval/${r.approvalId}/certificate` }),
  },
  'GET /api/v1/certificate/{code}': {
    record: 'certificate code',
    request: (r) => ({ url: `/api/v1/certificate/${r.code}` }),
  },
  'GET /api/v1/case/{id}/history': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/history` }),
  },
  'POST /api/v1/case/{id}/set': {
    record: 'case',
    // Each save must name the case's current modifiedAt, which the save before it moved.
    sequential: true,
    request: async (r, { world }) => {
      const [row] = await world.db
        .select({ modifiedAt: cases.modifiedAt })
        .from(cases)
        .where(eq(cases.id, Number(r.caseId)));
      return {
        url: `/api/v1/case/${r.caseId}/set`,
        payload: {
          observation: 'Checked by the matrix',
          modifiedAt: (row?.modifiedAt ?? new Date()).toISOString(),
        },
      };
    },
  },
  'POST /api/v1/case/{id}/services/add': {
    record: 'case',
    // Unpaid services change what a new transaction would charge.
    fresh: true,
    request: async (r, { world }) => ({
      url: `/api/v1/case/${r.caseId}/services/add`,
      payload: { productId: await productIdByCode(world.db, 'PLAN-GUIDE') },
    }),
  },
  'DELETE /api/v1/case/{id}/services/{serviceId}': {
    record: 'service',
    fresh: true,
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/services/${r.serviceId}` }),
  },
  'POST /api/v1/case/{id}/services/{serviceId}/data': {
    record: 'service',
    request: (r) => ({
      url: `/api/v1/case/${r.caseId}/services/${r.serviceId}/data`,
      payload: { dataVersion: 3, data: completeServiceData() },
    }),
  },
  'POST /api/v1/case/{id}/move': {
    record: 'case',
    fresh: true,
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/move`, payload: { action: 'cancel' } }),
  },
  'POST /api/v1/case/{id}/users': {
    record: 'case',
    request: (r, { world }) => ({
      url: `/api/v1/case/${r.caseId}/users`,
      payload: { userId: world.memberPartnerId, triggerNotification: false },
    }),
  },
  'DELETE /api/v1/case/{id}/users/{userId}': {
    record: 'case user',
    fresh: true,
    sequential: true,
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/users/${r.userId}` }),
  },
  'POST /api/v1/case/{id}/dispatch': {
    record: 'case',
    request: (r) => ({
      url: `/api/v1/case/${r.caseId}/dispatch`,
      payload: { date: '2026-01-02', carrier: 'Correios', trackingCode: 'BR123' },
    }),
  },
  'POST /api/v1/case/{id}/planner': {
    record: 'case',
    request: (r, { world }) => ({
      url: `/api/v1/case/${r.caseId}/planner`,
      // The case's own planner again, so nothing changes for the demo planner; on the stranger's
      // case another planner (the demo planner must not come to see it).
      payload: {
        plannerId:
          r.caseId === world.families.stranger.caseId
            ? world.otherPlannerId
            : world.sessions.planner.profile.id,
      },
    }),
  },
  'POST /api/v1/case/{id}/review': {
    record: 'case',
    request: (r) => ({
      url: `/api/v1/case/${r.caseId}/review`,
      payload: { description: 'The matrix asks for a review' },
    }),
  },
  'POST /api/v1/case/{id}/review/{reviewId}/solve': {
    record: 'review',
    fresh: true,
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/review/${r.reviewId}/solve` }),
  },
  'POST /api/v1/case/{id}/archive': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/archive` }),
  },
  'POST /api/v1/case/{id}/unarchive': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/unarchive` }),
  },

  // ── files ──
  'GET /api/v1/attachment/case/{caseId}/list': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/attachment/case/${r.caseId}/list` }),
  },
  'POST /api/v1/attachment/createPostUrl/{caseId}': {
    record: 'case',
    request: (r) => ({
      url: `/api/v1/attachment/createPostUrl/${r.caseId}`,
      payload: { filename: 'photo.jpg', filesize: 1000, attachment_name: 'photoProtocol.generic' },
    }),
  },
  'POST /api/v1/attachment/create/temp': {
    record: NO_RECORD,
    request: post('/api/v1/attachment/create/temp', {
      filename: 'me.png',
      filesize: 1000,
      attachment_name: 'avatar',
    }),
  },
  'GET /api/v1/attachment/uploadedSuccess/{id}': {
    record: 'upload',
    request: (r) => ({ url: `/api/v1/attachment/uploadedSuccess/${r.attachmentId}` }),
  },
  'POST /api/v1/attachment/resumable/{caseId}': {
    record: 'case',
    request: (r) => ({
      url: `/api/v1/attachment/resumable/${r.caseId}`,
      payload: { filename: 'scan.stl', filesize: 1000, attachment_name: 'exams.upperJawStl' },
    }),
  },
  'POST /api/v1/attachment/resumable/{id}/partUrls': {
    record: 'upload',
    request: (r) => ({
      url: `/api/v1/attachment/resumable/${r.attachmentId}/partUrls`,
      payload: { partNumbers: [1] },
    }),
  },
  'POST /api/v1/attachment/resumable/{id}/complete': {
    record: 'upload',
    request: (r) => ({
      url: `/api/v1/attachment/resumable/${r.attachmentId}/complete`,
      payload: { parts: [{ partNumber: 1, etag: '"etag"' }] },
    }),
  },
  'DELETE /api/v1/attachment/resumable/{id}': {
    record: 'upload',
    fresh: true,
    request: (r) => ({ url: `/api/v1/attachment/resumable/${r.attachmentId}` }),
  },
  'GET /api/v1/attachment/{id}/get': {
    record: 'client file',
    request: (r) => ({ url: `/api/v1/attachment/${r.attachmentId}/get` }),
  },
  'GET /api/v1/attachment/{id}/download': {
    record: 'client file',
    request: (r) => ({ url: `/api/v1/attachment/${r.attachmentId}/download` }),
  },
  'GET /api/v1/attachment/{id}/publish': {
    record: 'private planning file',
    fresh: true,
    request: (r) => ({ url: `/api/v1/attachment/${r.attachmentId}/publish` }),
  },
  'GET /api/v1/attachment/{id}/unpublish': {
    record: 'published planning file',
    fresh: true,
    request: (r) => ({ url: `/api/v1/attachment/${r.attachmentId}/unpublish` }),
  },
  'GET /api/v1/attachment/{id}/approve': {
    record: 'published planning file',
    fresh: true,
    request: (r) => ({ url: `/api/v1/attachment/${r.attachmentId}/approve` }),
  },
  'GET /api/v1/attachment/{id}/cancelRequest4Change': {
    record: 'planning file with a change request',
    fresh: true,
    request: (r) => ({ url: `/api/v1/attachment/${r.attachmentId}/cancelRequest4Change` }),
  },
  'POST /api/v1/attachment/{id}/request4Change': {
    record: 'published planning file',
    fresh: true,
    request: (r) => ({
      url: `/api/v1/attachment/${r.attachmentId}/request4Change`,
      payload: { text: 'Move the implant 1 mm' },
    }),
  },
  'DELETE /api/v1/attachment/{id}/delete': {
    record: 'client file',
    fresh: true,
    request: (r) => ({ url: `/api/v1/attachment/${r.attachmentId}/delete` }),
  },
  'POST /api/v1/storage/upload': {
    record: 'upload policy',
    fresh: true,
    request: async (r) => {
      const { upload, bytes } = r as { upload: Announced['upload']; bytes: Buffer };
      return { url: upload.url, ...(await multipartBody(upload.fields, bytes, 'photo.png')) };
    },
  },
  'PUT /api/v1/storage/part': {
    record: 'part URL',
    request: (r) => {
      const { partUrl, bytes } = r as { partUrl: string; bytes: Buffer };
      return {
        url: partUrl,
        payload: bytes,
        headers: { 'content-type': 'application/octet-stream' },
      };
    },
  },
  'GET /api/v1/storage/download': {
    record: 'download link',
    request: (r) => ({ url: String(r.link).replace(/^https?:\/\/[^/]+/, '') }),
  },
  'DELETE /api/v1/users/{id}/avatar': {
    record: 'user',
    request: (r) => ({ url: `/api/v1/users/${r.userId}/avatar` }),
  },

  // ── payments ──
  'GET /api/v1/case/{id}/transactions': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/transactions` }),
  },
  'POST /api/v1/case/transaction/{id}/new': {
    record: 'case',
    request: (r) => ({
      url: `/api/v1/case/transaction/${r.caseId}/new`,
      payload: { paymentMethod: 'pix' },
    }),
  },
  'GET /api/v1/case/transaction/{id}/refresh': {
    record: 'transaction',
    request: (r) => ({ url: `/api/v1/case/transaction/${r.transactionId}/refresh` }),
  },
  'GET /api/v1/case/transaction/{id}/paymentLink': {
    record: 'transaction',
    request: (r) => ({ url: `/api/v1/case/transaction/${r.transactionId}/paymentLink` }),
  },
  'POST /api/v1/case/transaction/{id}/submitReceipt': {
    record: 'transaction',
    fresh: true,
    sequential: true,
    request: (r) => {
      const form = receiptForm('Paid at the bank', { name: 'receipt.pdf', bytes: pdfBytes() });
      return {
        url: `/api/v1/case/transaction/${r.transactionId}/submitReceipt`,
        payload: form.payload,
        headers: form.headers,
      };
    },
  },
  'POST /api/v1/case/transaction/{id}/authReceipt': {
    record: 'transaction',
    request: (r) => ({
      url: `/api/v1/case/transaction/${r.transactionId}/authReceipt`,
      payload: { approve: true },
    }),
  },
  'POST /api/v1/case/transaction/{id}/setInvoiceCustomer': {
    record: 'transaction',
    fresh: true,
    sequential: true,
    request: (r) => ({
      url: `/api/v1/case/transaction/${r.transactionId}/setInvoiceCustomer`,
      payload: INVOICE_CUSTOMER,
    }),
  },
  'POST /api/v1/case/transaction/{id}/setInvoiceNumber': {
    record: 'transaction',
    request: (r) => ({
      url: `/api/v1/case/transaction/${r.transactionId}/setInvoiceNumber`,
      payload: { invoiceNumber: 'NF-MATRIX' },
    }),
  },
  'POST /api/v1/case/transaction/{id}/checkPhysicalPayment': {
    record: 'transaction',
    request: (r) => ({
      url: `/api/v1/case/transaction/${r.transactionId}/checkPhysicalPayment`,
      payload: { confirm: true },
    }),
  },
  'POST /api/v1/case/transaction/{id}/cancel': {
    record: 'transaction',
    fresh: true,
    sequential: true,
    request: (r) => ({
      url: `/api/v1/case/transaction/${r.transactionId}/cancel`,
      payload: { reasonId: 1, description: 'Patient gave up' },
    }),
  },
  'POST /api/v1/case/transaction/{id}/authCancel': {
    record: 'transaction',
    request: (r) => ({
      url: `/api/v1/case/transaction/${r.transactionId}/authCancel`,
      payload: { authorize: true },
    }),
  },
  'GET /api/v1/transactions/pending': {
    record: NO_RECORD,
    request: get('/api/v1/transactions/pending'),
  },
  'GET /api/v1/transactions/deferred': {
    record: NO_RECORD,
    request: get('/api/v1/transactions/deferred'),
  },
  'GET /api/v1/notification/paypal/transaction/{id}': {
    record: 'transaction',
    request: (r) => ({ url: `/api/v1/notification/paypal/transaction/${r.transactionId}` }),
  },
  'GET /api/v1/notification/pagseguro/transaction/{id}': {
    record: 'transaction',
    request: (r) => ({ url: `/api/v1/notification/pagseguro/transaction/${r.transactionId}` }),
  },
  // A reference no transaction has: the same 404 for everyone, signed in or not.
  'GET /api/v1/notification/paypal/status': {
    record: NO_RECORD,
    request: get('/api/v1/notification/paypal/status?reference=DF-0-000000000000'),
  },
  'GET /api/v1/notification/pagseguro/status': {
    record: NO_RECORD,
    request: get('/api/v1/notification/pagseguro/status?reference=DF-0-000000000000'),
  },
  'POST /api/v1/notification/paypal': {
    record: NO_RECORD,
    request: post('/api/v1/notification/paypal', {
      id: 'WH-MATRIX',
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: 'CAPTURE-MATRIX', status: 'COMPLETED' },
    }),
  },
  'POST /api/v1/notification/pagseguro': {
    record: NO_RECORD,
    request: post('/api/v1/notification/pagseguro', {
      id: 'ORDE_MATRIX',
      reference_id: 'matrix',
      charges: [{ status: 'PAID' }],
    }),
  },

  // ── chat ──
  'GET /api/v1/case/{id}/chat': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/chat` }),
  },
  'GET /api/v1/case/{id}/chat/{channel}': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/chat/4` }),
  },
  'POST /api/v1/case/{id}/chat/{channel}': {
    record: 'case',
    request: (r) => ({
      url: `/api/v1/case/${r.caseId}/chat/4`,
      payload: { text: 'Internal note' },
    }),
  },
  'POST /api/v1/case/{id}/chat/{channel}/seen': {
    record: 'case',
    request: (r) => ({
      url: `/api/v1/case/${r.caseId}/chat/4/seen`,
      payload: { upTo: 2_147_483_647 },
    }),
  },
  'DELETE /api/v1/case/{id}/chat/message/{messageId}': {
    record: 'chat message',
    fresh: true,
    request: (r) => ({ url: `/api/v1/case/${r.caseId}/chat/message/${r.messageId}` }),
  },

  // ── pins on planning models ──
  'GET /api/v1/attachment/{id}/pins': {
    record: 'published planning file',
    request: (r) => ({ url: `/api/v1/attachment/${r.attachmentId}/pins` }),
  },
  'POST /api/v1/attachment/{id}/pins': {
    record: 'published planning file',
    request: (r) => ({ url: `/api/v1/attachment/${r.attachmentId}/pins`, payload: PIN_BODY }),
  },
  'POST /api/v1/pin/{id}/resolve': {
    record: 'pin',
    request: (r) => ({ url: `/api/v1/pin/${r.pinId}/resolve` }),
  },
  'POST /api/v1/pin/{id}/reopen': {
    record: 'pin',
    request: (r) => ({ url: `/api/v1/pin/${r.pinId}/reopen` }),
  },

  // ── notifications ──
  'GET /api/v1/notification/last5': {
    record: NO_RECORD,
    request: get('/api/v1/notification/last5'),
  },
  'GET /api/v1/notification/list': { record: NO_RECORD, request: get('/api/v1/notification/list') },
  'GET /api/v1/notification/list/{page}': {
    record: NO_RECORD,
    request: get('/api/v1/notification/list/0'),
  },
  'GET /api/v1/notification/getStatus/{caseId}': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/notification/getStatus/${r.caseId}` }),
  },
  'GET /api/v1/notification/case/{caseId}': {
    record: 'case',
    request: (r) => ({ url: `/api/v1/notification/case/${r.caseId}` }),
  },
  'GET /api/v1/notification/markAllRead': {
    record: NO_RECORD,
    request: get('/api/v1/notification/markAllRead'),
  },

  // ── products, categories, coupons ──
  'GET /api/v1/products/list': { record: NO_RECORD, request: get('/api/v1/products/list') },
  'GET /api/v1/products/query/{query}': {
    record: NO_RECORD,
    request: get('/api/v1/products/query/all'),
  },
  'GET /api/v1/products/get/{id}': {
    record: 'product',
    request: (r) => ({ url: `/api/v1/products/get/${r.productId}` }),
  },
  'POST /api/v1/products/set/{id}': {
    record: 'product',
    fresh: true,
    request: async (r, { world }) => ({
      url: `/api/v1/products/set/${r.productId}`,
      payload: productForm(await productCodeOf(world.db, Number(r.productId))),
    }),
  },
  'GET /api/v1/products/delete/{id}': {
    record: 'product',
    fresh: true,
    request: (r) => ({ url: `/api/v1/products/delete/${r.productId}` }),
  },
  'GET /api/v1/products/image/{id}/{name}': {
    record: 'product image',
    request: (r) => ({ url: `/api/v1/products/image/${r.productId}/${r.name}` }),
  },
  'GET /api/v1/products/category/list': {
    record: NO_RECORD,
    request: get('/api/v1/products/category/list'),
  },
  'GET /api/v1/products/category/{id}/get': {
    record: 'category',
    request: (r) => ({ url: `/api/v1/products/category/${r.categoryId}/get` }),
  },
  'POST /api/v1/products/category/set/{id}': {
    record: 'category',
    // Saved as it is: the category keeps its names and state.
    request: async (r, { world }) => {
      const [row] = await world.db
        .select()
        .from(productCategories)
        .where(eq(productCategories.id, Number(r.categoryId)));
      return {
        url: `/api/v1/products/category/set/${r.categoryId}`,
        payload: {
          name: row?.names ?? { ptBR: 'Nova', en: 'New', es: 'Nueva' },
          active: row?.active ?? true,
        },
      };
    },
  },
  'GET /api/v1/products/coupom/query/{filter}/{page}': {
    record: NO_RECORD,
    request: get('/api/v1/products/coupom/query/all/0'),
  },
  'GET /api/v1/products/coupom/get/{id}': {
    record: 'coupon',
    request: (r) => ({ url: `/api/v1/products/coupom/get/${r.couponId}` }),
  },
  'POST /api/v1/products/coupom/set/{id}': {
    record: 'coupon',
    // Saved as it is.
    request: async (r, { world }) => {
      const [row] = await world.db
        .select()
        .from(coupons)
        .where(eq(coupons.id, Number(r.couponId)));
      return {
        url: `/api/v1/products/coupom/set/${r.couponId}`,
        payload: {
          name: row?.code ?? unique('MATRIX'),
          bind2User: null,
          bind2Product: null,
          bind2Category: null,
          maxUsage: null,
          coupomType: 1,
          value: 10,
          oncePerUser: false,
          applyOnManufactureService: false,
          active: true,
          expireAt: null,
        },
      };
    },
  },
  'DELETE /api/v1/products/coupom/delete/{id}': {
    record: 'coupon',
    fresh: true,
    request: (r) => ({ url: `/api/v1/products/coupom/delete/${r.couponId}` }),
  },

  // ── users ──
  'GET /api/v1/users/planners': { record: NO_RECORD, request: get('/api/v1/users/planners') },
  'GET /api/v1/users/list/{page}': { record: NO_RECORD, request: get('/api/v1/users/list/0') },
  'GET /api/v1/users/get/{id}': {
    record: 'user',
    request: (r) => ({ url: `/api/v1/users/get/${r.userId}` }),
  },
  'POST /api/v1/users/{id}/set': {
    record: 'user',
    // The user's roles as they are: nothing changes.
    request: async (r, { world }) => {
      const [row] = await world.db
        .select({ roles: users.roles })
        .from(users)
        .where(eq(users.id, Number(r.userId)));
      return { url: `/api/v1/users/${r.userId}/set`, payload: { roles: row?.roles ?? ['doctor'] } };
    },
  },
  'DELETE /api/v1/users/delete/{id}': {
    record: 'user',
    fresh: true,
    request: (r) => ({ url: `/api/v1/users/delete/${r.userId}` }),
  },
  'POST /api/v1/users/setPassword/{id}': {
    record: 'user',
    fresh: true,
    sequential: true,
    endsSessions: true,
    request: (r) => ({
      url: `/api/v1/users/setPassword/${r.userId}`,
      payload: { password: DEMO_PASSWORD },
    }),
  },
  'GET /api/v1/users/resendEmail/{id}': {
    record: 'user',
    request: (r) => ({ url: `/api/v1/users/resendEmail/${r.userId}` }),
  },
  'GET /api/v1/users/query_user/{field}/{value}': {
    record: NO_RECORD,
    request: get('/api/v1/users/query_user/nickname/doctor'),
  },
  'GET /api/v1/users/instructor/list': {
    record: NO_RECORD,
    request: get('/api/v1/users/instructor/list'),
  },
  'GET /api/v1/audit': { record: NO_RECORD, request: get('/api/v1/audit') },

  // ── settings ──
  'GET /api/v1/settings/payments': { record: NO_RECORD, request: get('/api/v1/settings/payments') },
  'POST /api/v1/settings/payments': settingsEcho('payments', [
    'pixConfigured',
    'paypalConfigured',
    'pagbankConfigured',
  ]),
  'GET /api/v1/settings/emails': { record: NO_RECORD, request: get('/api/v1/settings/emails') },
  'POST /api/v1/settings/emails': settingsEcho('emails'),
  'GET /api/v1/settings/serviceMetadata': {
    record: NO_RECORD,
    request: get('/api/v1/settings/serviceMetadata'),
  },
  'POST /api/v1/settings/serviceMetadata': settingsEcho('serviceMetadata'),
  'GET /api/v1/settings/treatmentPurposes': {
    record: NO_RECORD,
    request: get('/api/v1/settings/treatmentPurposes'),
  },
  'POST /api/v1/settings/treatmentPurposes': settingsEcho('treatmentPurposes'),
  'GET /api/v1/settings/sleeves': { record: NO_RECORD, request: get('/api/v1/settings/sleeves') },
  'POST /api/v1/settings/sleeves': settingsEcho('sleeves'),
  'GET /api/v1/settings/shipping': { record: NO_RECORD, request: get('/api/v1/settings/shipping') },
  'POST /api/v1/settings/shipping': settingsEcho('shipping'),

  // ── partners ──
  'GET /api/v1/partners': { record: NO_RECORD, request: get('/api/v1/partners') },
  'POST /api/v1/partners/link': {
    record: NO_RECORD,
    request: async (_r, { world }) => ({
      url: '/api/v1/partners/link',
      payload: {
        clinicId: world.sessions.clinic.profile.id,
        partnerId: await insertUser(world.db, ['partner']),
      },
    }),
  },
  'DELETE /api/v1/partners/link/{id}': {
    record: 'partner link',
    fresh: true,
    request: (r) => ({ url: `/api/v1/partners/link/${r.linkId}` }),
  },

  // ── instructors and students ──
  'POST /api/v1/users/invite_doctor': {
    record: NO_RECORD,
    request: () => ({
      url: '/api/v1/users/invite_doctor',
      payload: { email: `${unique('invited')}@matrix.test`, language: 'en' },
    }),
  },
  'GET /api/v1/students': { record: NO_RECORD, request: get('/api/v1/students') },
  'GET /api/v1/students/{studentId}/cases': {
    record: 'student',
    request: (r) => ({ url: `/api/v1/students/${r.studentId}/cases` }),
  },
  'POST /api/v1/students/invitations/{id}/resend': {
    record: 'invitation',
    request: (r) => ({ url: `/api/v1/students/invitations/${r.invitationId}/resend` }),
  },
  'DELETE /api/v1/students/invitations/{id}': {
    record: 'invitation',
    fresh: true,
    request: (r) => ({ url: `/api/v1/students/invitations/${r.invitationId}` }),
  },
  'GET /api/v1/students/invitations/{token}': {
    record: 'invitation link',
    request: (r) => ({ url: `/api/v1/students/invitations/${r.token}` }),
  },
};
