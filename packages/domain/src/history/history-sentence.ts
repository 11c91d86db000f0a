import { isOneOf } from '../common/one-of';
import { CANCEL_REASONS, keyOfId } from '../constants';
import { CURRENCIES, type Currency } from '../i18n/locale';
import { CASE_ACTIONS, CASE_STATUSES } from '../cases/case-status';
import { REVIEW_REASONS } from '../cases/case-review';
import { PAYMENT_METHODS, PAYMENT_STATUSES } from '../payments/payment';

/**
 * A value placed in a history sentence: plain text (a name, a file name, a number), the label of
 * a constant in the catalogues (`namespace:key`, translated by the reader's language) or money
 * (formatted in its currency).
 */
export type HistoryParam =
  { text: string } | { label: string } | { money: { amount: number; currency: Currency } };

/** One line of a history entry: a catalogue key (`namespace:key`) and its placeholders. */
export interface HistorySentence {
  key: string;
  params: Record<string, HistoryParam>;
}

/** A case history entry as the server answers it (`GET /case/{id}/history`). */
export interface HistoryEntry {
  action: string;
  actor: { displayName: string } | null;
  fromStatus: string | null;
  toStatus: string | null;
  detail: Record<string, unknown>;
}

const S = 'cases:history.sentences.';
const D = 'cases:history.details.';

const text = (value: string | number): HistoryParam => ({ text: String(value) });
const label = (key: string): HistoryParam => ({ label: key });
const str = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? value.trim() : null;
const int = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : null;

/** Money from an amount (minor units) and a currency in the detail, when both are there. */
function moneyOf(amount: unknown, currency: unknown): HistoryParam | null {
  return typeof amount === 'number' && Number.isSafeInteger(amount) && isOneOf(CURRENCIES, currency)
    ? { money: { amount, currency } }
    : null;
}

const statusLabel = (status: unknown): HistoryParam | null =>
  isOneOf(CASE_STATUSES, status) ? label(`domain:caseStatuses.${status}`) : null;
const paymentStatusLabel = (status: unknown): HistoryParam | null =>
  isOneOf(PAYMENT_STATUSES, status) ? label(`domain:paymentStatuses.${status}`) : null;

/** The key of a numbered constant (a review or cancel reason) the detail names, if any. */
const keyOf = <T extends Record<string, number>>(table: T, id: unknown) =>
  typeof id === 'number' ? (keyOfId(table, id) as (keyof T & string) | undefined) : undefined;

/** Who did it: the actor's name; the system when no person did (a job, the payment provider). */
function actorOf(entry: HistoryEntry): HistoryParam {
  if (entry.actor === null) {
    return label(
      entry.action === 'payment' && entry.detail.cause === 'provider'
        ? 'cases:history.provider'
        : 'cases:history.system',
    );
  }
  return entry.actor.displayName.trim()
    ? text(entry.actor.displayName.trim())
    : label('cases:history.someone');
}

/** The named variant of a sentence when the name is known, else the one without it. */
function named(
  key: string,
  name: string | null,
  param: string,
  params: Record<string, HistoryParam>,
): HistorySentence {
  return name === null
    ? { key: `${S}${key}`, params }
    : { key: `${S}${key}Named`, params: { ...params, [param]: text(name) } };
}

const ATTACHMENT_EVENTS = [
  'attachmentAdded',
  'attachmentPublished',
  'attachmentUnpublished',
  'attachmentApproved',
  'attachmentChangeRequested',
  'attachmentChangeRequestCancelled',
  'attachmentDeleted',
] as const;

/** Case events written by the cases themselves (besides the moves in `CASE_ACTIONS`). */
const CASE_EVENTS = [
  'created',
  'updated',
  'serviceAdded',
  'serviceRemoved',
  'serviceData',
  'archived',
  'unarchived',
  'reviewSolved',
] as const;

const PAYMENT_CHANGES = [
  'created',
  'status',
  'receiptSubmitted',
  'receiptDenied',
  'invoiceCustomerSet',
  'invoiceNumberSet',
  'paymentNotConfirmed',
  'cancelRequested',
  'cancelDenied',
  'amountMismatch',
] as const;

/** The lines of a change of a transaction (`payment` events). */
function paymentSentences(detail: Record<string, unknown>, actor: HistoryParam): HistorySentence[] {
  const transaction = int(detail.transactionId);
  const params: Record<string, HistoryParam> = {
    actor,
    transaction: text(transaction === null ? '?' : `#${transaction}`),
  };
  const change = isOneOf(PAYMENT_CHANGES, detail.change) ? detail.change : null;
  const lines: HistorySentence[] = [];
  if (change === 'status') {
    const from = paymentStatusLabel(detail.from);
    const to = paymentStatusLabel(detail.to);
    lines.push(
      from && to
        ? { key: `${S}paymentStatus`, params: { ...params, from, to } }
        : { key: `${S}paymentChanged`, params },
    );
  } else if (change === 'created') {
    const method = isOneOf(PAYMENT_METHODS, detail.paymentMethod)
      ? label(`domain:paymentMethods.${detail.paymentMethod}`)
      : null;
    lines.push(
      method
        ? { key: `${S}paymentCreatedMethod`, params: { ...params, method } }
        : { key: `${S}paymentCreated`, params },
    );
  } else if (change === 'invoiceNumberSet') {
    lines.push(named('invoiceNumberSet', str(detail.invoiceNumber), 'number', params));
  } else if (change === 'amountMismatch') {
    const reported = moneyOf(detail.amount, detail.currency);
    const expected = moneyOf(detail.expected, detail.expectedCurrency);
    lines.push(
      reported && expected
        ? { key: `${S}amountMismatchAmounts`, params: { ...params, reported, expected } }
        : { key: `${S}amountMismatch`, params },
    );
  } else {
    lines.push({ key: `${S}${change ?? 'paymentChanged'}`, params });
  }
  const total = moneyOf(detail.total, detail.currency);
  if (total && change !== 'amountMismatch') {
    lines.push({ key: `${D}amount`, params: { amount: total } });
  }
  const reason = keyOf(CANCEL_REASONS, detail.reasonId);
  if (change === 'cancelRequested' && reason) {
    lines.push({
      key: `${D}cancelReason`,
      params: { reason: label(`domain:cancelReasons.${reason}`) },
    });
  }
  return lines;
}

/** The first line of a case status move, by the action that made it. */
function moveSentence(entry: HistoryEntry, actor: HistoryParam): HistorySentence {
  if (entry.action === 'validate' && entry.detail.automatic === true) {
    return { key: `${S}validateAutomatic`, params: {} };
  }
  return { key: `${S}moves.${entry.action}`, params: { actor } };
}

/**
 * What a case history entry says, as sentences for the reader's catalogue: the first says who
 * did what (with the payment, amount, file, member or status it concerns when the entry holds
 * it); the next ones add the status move, the comment, the reason or the amount. An entry of an
 * unknown kind, or one missing its details (rows written before they were recorded), still reads
 * as a sentence — never as a raw key.
 */
export function historySentences(entry: HistoryEntry): HistorySentence[] {
  const { action, detail } = entry;
  const actor = actorOf(entry);
  const lines: HistorySentence[] = [];
  const isMove = isOneOf(CASE_ACTIONS, action);

  if (isMove) {
    lines.push(moveSentence(entry, actor));
  } else if (action === 'payment') {
    lines.push(...paymentSentences(detail, actor));
  } else if (action === 'checkout') {
    const transaction = int(detail.transactionId);
    lines.push(
      transaction === null
        ? { key: `${S}checkout`, params: { actor } }
        : {
            key: `${S}checkoutTransaction`,
            params: { actor, transaction: text(`#${transaction}`) },
          },
    );
    const total = moneyOf(detail.total, detail.currency);
    if (total) lines.push({ key: `${D}amount`, params: { amount: total } });
    if (detail.upgrade === true) lines.push({ key: `${D}upgrade`, params: {} });
  } else if (isOneOf(ATTACHMENT_EVENTS, action)) {
    lines.push(named(action, str(detail.fileName), 'file', { actor }));
    const request = str(detail.text);
    if (action === 'attachmentChangeRequested' && request) {
      lines.push({ key: `${D}comment`, params: { text: text(request) } });
    }
  } else if (action === 'userAdded' || action === 'userRemoved') {
    lines.push(named(action, str(detail.userName), 'user', { actor }));
  } else if (action === 'userNotificationsSet') {
    const on = detail.triggerNotification !== false;
    lines.push(
      named(on ? 'notificationsOn' : 'notificationsOff', str(detail.userName), 'user', { actor }),
    );
  } else if (action === 'plannerSet') {
    lines.push(named(action, str(detail.plannerName), 'planner', { actor }));
  } else if (action === 'reviewOpened') {
    const reason = keyOf(REVIEW_REASONS, detail.reasonId);
    lines.push(
      reason
        ? {
            key: `${S}reviewOpenedReason`,
            params: { actor, reason: label(`domain:reviewReasons.${reason}`) },
          }
        : { key: `${S}reviewOpened`, params: { actor } },
    );
  } else if (action === 'currencyChanged') {
    const from = str(detail.from);
    const to = str(detail.to);
    lines.push(
      from && to
        ? { key: `${S}currencyChanged`, params: { actor, from: text(from), to: text(to) } }
        : { key: `${S}updated`, params: { actor } },
    );
  } else if (action === 'dispatched') {
    const carrier = str(detail.carrier);
    const code = str(detail.trackingCode);
    if (detail.kind === 'readyForPickup') {
      lines.push({ key: `${S}readyForPickup`, params: { actor } });
    } else {
      lines.push(named('dispatched', carrier, 'carrier', { actor }));
    }
    if (code) lines.push({ key: `${D}trackingCode`, params: { code: text(code) } });
  } else if (isOneOf(CASE_EVENTS, action)) {
    lines.push({ key: `${S}${action}`, params: { actor } });
  } else {
    lines.push({ key: `${S}unknown`, params: { actor } });
  }

  const from = statusLabel(entry.fromStatus);
  const to = statusLabel(entry.toStatus);
  const caseMove =
    isMove || action === 'created' || action === 'checkout' || action === 'unarchived';
  if (caseMove && to && entry.fromStatus !== entry.toStatus) {
    lines.push(
      from
        ? { key: `${D}statusMoved`, params: { from, to } }
        : { key: `${D}status`, params: { status: to } },
    );
  }
  if (isMove) lines.push(...moveDetails(entry));
  return lines;
}

/**
 * The approval record an `approve` entry links to (its certificate), when the entry names one
 * (decision 028); entries written before approval records were kept name none.
 */
export function approvalCertificateOf(
  entry: Pick<HistoryEntry, 'action' | 'detail'>,
): { approvalId: number; certificateCode: string } | null {
  if (entry.action !== 'approve') return null;
  const approvalId = int(entry.detail.approvalId);
  const certificateCode = str(entry.detail.certificateCode);
  return approvalId !== null && certificateCode ? { approvalId, certificateCode } : null;
}

/** What a move adds: its comment, and a validation without payment its reason and amount. */
function moveDetails(entry: HistoryEntry): HistorySentence[] {
  const lines: HistorySentence[] = [];
  const comment = str(entry.detail.text);
  if (comment) lines.push({ key: `${D}comment`, params: { text: text(comment) } });
  const certificate = approvalCertificateOf(entry);
  if (certificate) {
    lines.push({ key: `${D}certificate`, params: { code: text(certificate.certificateCode) } });
  }
  const override = entry.detail.paymentOverride;
  if (entry.action === 'validate' && override && typeof override === 'object') {
    const { reason, unpaidAmount, currency } = override as Record<string, unknown>;
    lines.push({ key: `${D}paymentOverride`, params: { reason: text(str(reason) ?? '') } });
    const unpaid = moneyOf(unpaidAmount, currency);
    if (unpaid) lines.push({ key: `${D}unpaidAmount`, params: { amount: unpaid } });
  }
  return lines;
}

/**
 * A sentence in words: each label translated, money formatted, then the sentence's own text.
 * `translate` looks up a `namespace:key` in the reader's catalogue and fills `{{name}}`.
 */
export function renderHistorySentence(
  sentence: HistorySentence,
  translate: (key: string, params: Record<string, string>) => string,
  formatMoney: (amount: number, currency: Currency) => string,
): string {
  const params = Object.fromEntries(
    Object.entries(sentence.params).map(([name, param]) => {
      if ('text' in param) return [name, param.text];
      if ('label' in param) return [name, translate(param.label, {})];
      return [name, formatMoney(param.money.amount, param.money.currency)];
    }),
  );
  return translate(sentence.key, params);
}
