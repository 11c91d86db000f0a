import { describe, expect, it } from 'vitest';
import { translate, type Namespace } from '../i18n/catalogues';
import { LANGUAGES, type Language } from '../i18n/locale';
import { formatMoney } from '../money';
import { CASE_ACTIONS } from '../cases/case-status';
import {
  approvalCertificateOf,
  historySentences,
  renderHistorySentence,
  type HistoryEntry,
  type HistorySentence,
} from './history-sentence';

const entry = (overrides: Partial<HistoryEntry>): HistoryEntry => ({
  action: 'created',
  actor: { displayName: 'Ana Souza' },
  fromStatus: null,
  toStatus: null,
  detail: {},
  ...overrides,
});

/** The sentences in words, through the real catalogue of the language. */
const render = (language: Language, value: HistoryEntry): string[] =>
  historySentences(value).map((sentence: HistorySentence) =>
    renderHistorySentence(
      sentence,
      (key, params) => {
        const [namespace, path] = key.split(':') as [Namespace, string];
        return translate(language, namespace, path, params);
      },
      formatMoney,
    ),
  );

const PAYMENT_PAID = entry({
  action: 'payment',
  actor: null,
  detail: {
    transactionId: 7,
    change: 'status',
    from: 'awaiting_payment',
    to: 'paid',
    cause: 'provider',
    total: 45_000,
    currency: 'BRL',
  },
});

/** [what, entry, en, ptBR, es] */
const TABLE: [string, HistoryEntry, string[], string[], string[]][] = [
  [
    'a file added, with its name',
    entry({ action: 'attachmentAdded', detail: { attachmentId: 3, fileName: 'scan.stl' } }),
    ['Ana Souza added the file scan.stl.'],
    ['Ana Souza adicionou o arquivo scan.stl.'],
    ['Ana Souza añadió el archivo scan.stl.'],
  ],
  [
    'a file added before names were recorded',
    entry({ action: 'attachmentAdded', detail: { attachmentId: 3 } }),
    ['Ana Souza added a file.'],
    ['Ana Souza adicionou um arquivo.'],
    ['Ana Souza añadió un archivo.'],
  ],
  [
    'a payment confirmed by the provider, with its amount',
    PAYMENT_PAID,
    [
      'The payment provider changed payment #7 from "Awaiting payment" to "Paid".',
      'Amount: R$ 450,00',
    ],
    [
      'O provedor de pagamento mudou o pagamento #7 de "Aguardando pagamento" para "Pago".',
      'Valor: R$ 450,00',
    ],
    [
      'El proveedor de pagos cambió el pago #7 de "Esperando pago" a "Pagado".',
      'Importe: R$ 450,00',
    ],
  ],
  [
    'a payment change read without its money (an old row, or a viewer who does not see it)',
    entry({ action: 'payment', detail: { transactionId: 7, change: 'receiptSubmitted' } }),
    ['Ana Souza sent a receipt for payment #7.'],
    ['Ana Souza enviou um comprovante do pagamento #7.'],
    ['Ana Souza envió un comprobante del pago #7.'],
  ],
  [
    'an order placed, with its total',
    entry({
      action: 'checkout',
      fromStatus: 'new',
      toStatus: 'checkingout',
      detail: { transactionId: 5, total: 12_345, currency: 'USD' },
    }),
    ['Ana Souza placed an order (payment #5).', 'Amount: U$ 123.45', 'Status: New → Checking out'],
    ['Ana Souza fez um pedido (pagamento #5).', 'Valor: U$ 123.45', 'Status: Novo → Em pagamento'],
    ['Ana Souza hizo un pedido (pago #5).', 'Importe: U$ 123.45', 'Estado: Nuevo → En pago'],
  ],
  [
    'an approval with its comment',
    entry({
      action: 'approve',
      fromStatus: 'approve',
      toStatus: 'finishing',
      detail: { serviceIds: [1], text: 'Looks good' },
    }),
    [
      'Ana Souza approved the planning.',
      'Status: Awaiting approval → Finishing',
      'Comment: "Looks good"',
    ],
    [
      'Ana Souza aprovou o planejamento.',
      'Status: Aguardando aprovação → Finalizando',
      'Comentário: "Looks good"',
    ],
    [
      'Ana Souza aprobó la planificación.',
      'Estado: Esperando aprobación → Finalizando',
      'Comentario: "Looks good"',
    ],
  ],
  [
    'a member added, by name',
    entry({ action: 'userAdded', detail: { userId: 9, userName: 'Paulo Parceiro' } }),
    ['Ana Souza added Paulo Parceiro to the case.'],
    ['Ana Souza adicionou Paulo Parceiro ao caso.'],
    ['Ana Souza añadió a Paulo Parceiro al caso.'],
  ],
  [
    "a member's notifications switched off",
    entry({
      action: 'userNotificationsSet',
      detail: { userId: 9, userName: 'Paulo Parceiro', triggerNotification: false },
    }),
    ['Ana Souza turned off the case notifications of Paulo Parceiro.'],
    ['Ana Souza desativou os avisos do caso para Paulo Parceiro.'],
    ['Ana Souza desactivó los avisos del caso para Paulo Parceiro.'],
  ],
  [
    'a review opened by the system, with its reason',
    entry({ action: 'reviewOpened', actor: null, detail: { reasonId: 3 } }),
    ['The system opened a review: Planning deadline near.'],
    ['O sistema abriu uma revisão: Prazo de planejamento próximo.'],
    ['El sistema abrió una revisión: Plazo de planificación cercano.'],
  ],
  [
    'an event of a kind this version does not know',
    entry({ action: 'somethingNew', detail: { x: 1 } }),
    ['Ana Souza changed the case.'],
    ['Ana Souza alterou o caso.'],
    ['Ana Souza modificó el caso.'],
  ],
];

describe('history sentences', () => {
  it.each(TABLE)('%s', (_what, value, en, ptBR, es) => {
    expect(render('en', value)).toEqual(en);
    expect(render('ptBR', value)).toEqual(ptBR);
    expect(render('es', value)).toEqual(es);
  });

  const KINDS: HistoryEntry[] = [
    ...CASE_ACTIONS.map((action) => entry({ action, fromStatus: 'new', toStatus: 'checkingout' })),
    ...[
      'created',
      'updated',
      'serviceAdded',
      'serviceRemoved',
      'serviceData',
      'userAdded',
      'userRemoved',
      'userNotificationsSet',
      'plannerSet',
      'reviewOpened',
      'reviewSolved',
      'archived',
      'unarchived',
      'dispatched',
      'currencyChanged',
      'checkout',
      'attachmentAdded',
      'attachmentPublished',
      'attachmentUnpublished',
      'attachmentApproved',
      'attachmentChangeRequested',
      'attachmentChangeRequestCancelled',
      'attachmentDeleted',
      'payment',
      'nobodyKnowsThis',
    ].map((action) => entry({ action })),
    ...[
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
      'futureChange',
    ].map((change) => entry({ action: 'payment', detail: { transactionId: 1, change } })),
  ];

  it.each(LANGUAGES)(
    'every kind of entry reads as sentences in %s: no raw key, no empty placeholder',
    (language) => {
      for (const value of KINDS) {
        for (const line of render(language, value)) {
          expect(line, value.action).not.toMatch(/^[\w.]+$/);
          expect(line, value.action).not.toMatch(/history\.|\{\{|undefined/);
          expect(line, value.action).toMatch(/\s/);
        }
      }
    },
  );

  it('names the dispatch carrier, the tracking code and a pickup', () => {
    expect(
      render(
        'en',
        entry({
          action: 'dispatched',
          detail: { kind: 'shipped', carrier: 'DHL', trackingCode: 'X1' },
        }),
      ),
    ).toEqual(['Ana Souza shipped the order with DHL.', 'Tracking code: X1']);
    expect(
      render('en', entry({ action: 'dispatched', detail: { kind: 'readyForPickup' } })),
    ).toEqual(['Ana Souza marked the order as ready for pickup at the lab.']);
  });

  it('says a validation without payment with its reason and the unpaid amount when present', () => {
    const override = (paymentOverride: Record<string, unknown>) =>
      render(
        'en',
        entry({
          action: 'validate',
          fromStatus: 'checkingout',
          toStatus: 'execute',
          detail: { paymentOverride },
        }),
      );
    expect(override({ reason: 'Billed monthly', unpaidAmount: 100, currency: 'BRL' })).toEqual([
      'Ana Souza validated the case.',
      'Status: Checking out → In planning',
      'Validated without payment: Billed monthly',
      'Unpaid amount: R$ 1,00',
    ]);
    expect(override({ reason: 'Billed monthly' })).toHaveLength(3);
  });

  it('links an approval to its certificate when the entry names one', () => {
    const approved = entry({
      action: 'approve',
      detail: { text: 'OK', approvalId: 4, certificateCode: 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01' },
    });
    expect(render('ptBR', approved)).toContain(
      'Certificado de aprovação ABCD-EFGH-JKMN-PQRS-TVWX-YZ01',
    );
    expect(approvalCertificateOf(approved)).toEqual({
      approvalId: 4,
      certificateCode: 'ABCD-EFGH-JKMN-PQRS-TVWX-YZ01',
    });
  });

  it.each([
    ['an approval before records were kept', entry({ action: 'approve', detail: { text: 'OK' } })],
    ['another move', entry({ action: 'finish', detail: { approvalId: 4, certificateCode: 'X' } })],
    [
      'a malformed detail',
      entry({ action: 'approve', detail: { approvalId: '4', certificateCode: 'X' } }),
    ],
  ])('names no certificate for %s', (_what, value) => {
    expect(approvalCertificateOf(value)).toBeNull();
    expect(render('en', value).join(' ')).not.toContain('certificate');
  });
});
