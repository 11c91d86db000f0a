import { z } from 'zod';
import { MESSAGE, emailSchema } from '../forms/rules';
import { isValidDocument } from '../forms/masks';
import { addressFormSchema, isAddressValid, type Address } from '../common/address';
import { isOneOf } from '../common/one-of';

/**
 * Invoice dialog: document type cpf, cnpj or id (a foreign identity document, free text
 * like the profile's 'none'), masked; Save disabled until valid.
 */
export const INVOICE_DOCUMENT_TYPES = ['CPF', 'CNPJ', 'id'] as const;
export type InvoiceDocumentType = (typeof INVOICE_DOCUMENT_TYPES)[number];

/** What the invoice dialog submits (`POST /case/transaction/{id}/setInvoiceCustomer`). */
export const invoiceCustomerFormSchema = z
  .object({
    customerName: z
      .string({ error: MESSAGE.required })
      .trim()
      .min(1, MESSAGE.required)
      .max(120, MESSAGE.max),
    documentType: z.enum(INVOICE_DOCUMENT_TYPES, { error: MESSAGE.required }),
    document: z
      .string({ error: MESSAGE.required })
      .trim()
      .min(1, MESSAGE.required)
      .max(30, MESSAGE.max),
    email: z.union([z.literal(''), emailSchema]).optional(),
    address: addressFormSchema,
  })
  .superRefine((value, ctx) => {
    if (!isValidDocument(value.documentType, value.document)) {
      ctx.addIssue({ code: 'custom', path: ['document'], message: MESSAGE.invalidDocument });
    }
  });
export type InvoiceCustomerForm = z.infer<typeof invoiceCustomerFormSchema>;

/**
 * Valid only with customer name, document type, document and a valid address. The document must
 * also pass its type's check (CPF/CNPJ check digits).
 */
export function isInvoiceValid(
  invoice:
    | {
        customerName?: string | null;
        documentType?: string | null;
        document?: string | null;
        address?: Partial<Address> | null;
      }
    | null
    | undefined,
): boolean {
  if (!invoice) return false;
  const { customerName, documentType, document, address } = invoice;
  return (
    !!customerName?.trim() &&
    isOneOf(INVOICE_DOCUMENT_TYPES, documentType ?? '') &&
    !!document?.trim() &&
    isValidDocument(documentType ?? '', document) &&
    isAddressValid(address)
  );
}
