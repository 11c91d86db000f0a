import type { Language } from '@dentflow/domain';
import type { DbOrTx } from '../../db/client';
import { findCase } from './case-detail.repository';
import { previewServicesSql } from './cases-list.repository';
import {
  listCaseTransactionStatuses,
  setCaseAddressIfNone,
  type CaseRow,
} from './cases.repository';

/**
 * What other modules read or keep on a case's record, in their own transaction (the shop's
 * checkout and quote, the students' lists). The cases module owns the tables; these name what
 * each read is for.
 */

/** The case's stored row (status, currency, `modifiedAt`), or undefined when it does not exist. */
export const loadCaseRecord = (db: DbOrTx, caseId: number): Promise<CaseRow | undefined> =>
  findCase(db, caseId);

/** The payment status of each transaction of the case (whether its currency may change). */
export const caseTransactionStatuses = (db: DbOrTx, caseId: number): Promise<string[]> =>
  listCaseTransactionStatuses(db, caseId);

/** The first order's delivery address becomes the case's address unless it has one. */
export const keepFirstDeliveryAddress = (
  tx: DbOrTx,
  caseId: number,
  address: NonNullable<CaseRow['address']>,
): Promise<void> => setCaseAddressIfNone(tx, caseId, address);

/**
 * A case preview's services (`{id, productName, category}` in the language, as JSON), as a column
 * of a select from `cases`: other lists of cases show them like the case list does.
 */
export const caseServicesPreviewColumn = (language: Language) => previewServicesSql(language);
