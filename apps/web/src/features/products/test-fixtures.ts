import type { AdminProduct, Category } from '@dentflow/domain';

/** Test data in the contract's shapes (shop-api.ts). */
export function adminProduct(overrides: Partial<AdminProduct> = {}): AdminProduct {
  const text = (name: string, price: number) => ({
    name,
    description: '',
    price,
    discount: 0,
    publish: true,
  });
  return {
    id: 1,
    productType: 1,
    productCategory: 3,
    code: 'GUIDE-PLAN',
    innerProducts: [],
    image: null,
    imageUrl: null,
    manufactureTime: 2,
    productKind: 1,
    qtdOption: 2,
    qtdMax: 2,
    alignment: false,
    favorite: false,
    kindOfManufacture: null,
    enableKit: false,
    enableSleeve: false,
    mockup: false,
    shipping: false,
    clientPrints: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    modifiedAt: '2026-01-01T00:00:00.000Z',
    deletedAt: null,
    uploadFiles: true,
    downloadFiles: true,
    texts: {
      ptBR: text('Planejamento de guia', 123456),
      en: text('Guide planning', 25000),
      es: text('Planificación de guía', 25000),
    },
    price: 25000,
    discount: 0,
    ...overrides,
  };
}

export function category(overrides: Partial<Category> = {}): Category {
  return {
    id: 3,
    name: { ptBR: 'Cirurgia guiada', en: 'Guided surgery', es: 'Cirugía guiada' },
    active: true,
    modifiedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
