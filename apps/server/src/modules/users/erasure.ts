import { deletedEmailOf, eraseInJson, eraseInText, identifiersOf } from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import {
  eraseInvitationsTo,
  eraseMailsTo,
  findAuditRowsOfPerson,
  findMailsMentioning,
  findMessagesMentioning,
  updateAuditDetails,
  updateMailParams,
  updateMessageTexts,
} from './erasure.repository';
import type { UserRow } from './users.repository';

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * In the deletion's transaction, before the account row is anonymized: the records that outlive
 * it lose the person (docs/decisions/021-erasure.md). The audit log keeps every row, with the
 * person's contacts, document and names erased from the details (whole personal fields, address
 * included, in the rows about their account); invitations and mails to their email are readdressed to the
 * anonymized one, the mails' bodies dropped and unsent ones given up; mails to others lose their
 * name; their chat messages stay (the case's conversation is part of its record) with their
 * identifiers erased from the text, and the author shown as the anonymized account.
 */
export async function eraseOutlivingRecords(tx: DbOrTx, user: UserRow, now: Date): Promise<void> {
  const identifiers = identifiersOf({
    email: user.email,
    nickName: user.nickName,
    fname: user.fname,
    lname: user.lname,
    displayName: user.displayName,
    document: user.dataInfo.document,
    phone: user.dataInfo.mobile.number,
  });
  const ownId = String(user.id);
  // The rows that may hold them (a text search of the JSON); the domain decides what changes.
  const searched = [...identifiers.inText, ...identifiers.names];

  for (const row of await findAuditRowsOfPerson(tx, user.id, searched)) {
    const ownFields = row.entity === 'user' && row.entityId === ownId;
    const erased = eraseInJson(row.details, identifiers, { ownFields }) as Record<string, unknown>;
    if (!sameJson(erased, row.details)) await updateAuditDetails(tx, row.id, erased);
  }

  const replacement = deletedEmailOf(user.id);
  await eraseInvitationsTo(tx, user.email, replacement, now);
  await eraseMailsTo(tx, user.email, replacement);
  for (const mail of await findMailsMentioning(tx, searched)) {
    const erased = eraseInJson(mail.params, identifiers) as Record<string, unknown>;
    if (!sameJson(erased, mail.params)) await updateMailParams(tx, mail.id, erased);
  }

  const messages = await findMessagesMentioning(tx, user.id, identifiers.inText);
  await updateMessageTexts(
    tx,
    messages.map((message) => ({ id: message.id, text: eraseInText(message.text, identifiers) })),
  );
}
