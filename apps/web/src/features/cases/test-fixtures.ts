import {
  emptyServiceDataV3,
  type CaseDetail,
  type CasePreview,
  type CaseReviewDetail,
  type CaseServiceDetail,
} from '@dentflow/domain';

/** Test data in the contract's shapes (case-api.ts). */
export function caseService(overrides: Partial<CaseServiceDetail> = {}): CaseServiceDetail {
  return {
    id: 11,
    productId: 1,
    serviceId: null,
    productCategoryId: 3,
    productName: 'Surgical guide planning',
    productKind: 1,
    qtdOption: 2,
    qtdMax: 2,
    manufactureTime: 1,
    quantity: 1,
    printableProduct: false,
    planner: null,
    approveRequestAt: null,
    approveAt: null,
    paid: false,
    payment: 'unpaid',
    dataVersion: 3,
    data: emptyServiceDataV3(),
    dataValid: false,
    manufacture: null,
    ...overrides,
  };
}

export function caseDetail(overrides: Partial<CaseDetail> = {}): CaseDetail {
  return {
    id: 42,
    ownerId: 7,
    owner: { id: 7, displayName: 'Ana Souza' },
    caseStatus: 'new',
    caseArchived: false,
    caseReview: false,
    caseCurrency: 'USD',
    patient: { fname: 'Maria', lname: 'Silva', birthDate: null, gender: null, note: null },
    address: null,
    observation: '',
    createdAt: '2026-11-20T10:00:00.000Z',
    modifiedAt: '2026-11-20T10:00:00.000Z',
    deadlineAt: null,
    finishAt: null,
    services: [caseService()],
    users: [],
    reviews: [],
    checks: {
      services: false,
      patient: true,
      attachments: false,
      transactions: false,
      missingSlots: [],
      unpaidServiceIds: [11],
    },
    actions: [],
    can: ['edit', 'addService'],
    readOnly: false,
    delivery: null,
    dispatch: null,
    productionActions: [],
    ...overrides,
  };
}

/** An open review, opened by a supervisor without a reason (a free review). */
export function caseReview(overrides: Partial<CaseReviewDetail> = {}): CaseReviewDetail {
  return {
    id: 5,
    reasonId: null,
    description: '',
    createdAt: '2026-11-20T10:00:00.000Z',
    createdBy: { id: 2, displayName: 'Sofia Supervisor' },
    solvedAt: null,
    solvedBy: null,
    canSolve: false,
    ...overrides,
  };
}

export function casePreview(overrides: Partial<CasePreview> = {}): CasePreview {
  return {
    id: 1,
    patient: { fname: 'Maria', lname: 'Silva' },
    caseStatus: 'new',
    caseArchived: false,
    caseCurrency: 'USD',
    owner: { id: 7, displayName: 'Ana Souza' },
    services: [{ id: 11, productName: 'Surgical guide planning', category: 3 }],
    createdAt: '2026-11-20T10:00:00.000Z',
    deadlineAt: null,
    modifiedAt: '2026-11-20T10:00:00.000Z',
    review: false,
    unseen: 0,
    dispatch: null,
    ...overrides,
  };
}
