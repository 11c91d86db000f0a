import type {
  AdminProduct,
  CheckoutBreakdown,
  QuoteResponse,
  ShopInnerProduct,
  ShopProduct,
} from '@dentflow/domain';

/** Test data in the contract's shapes (shop-api.ts). */
export function shopProduct(overrides: Partial<ShopProduct> = {}): ShopProduct {
  return {
    id: 1,
    code: 'PLAN-GUIDE',
    productType: 1,
    productCategoryId: 3,
    categoryName: 'Guided surgery',
    productKind: 1,
    qtdOption: 1,
    qtdMax: 1,
    manufactureTime: 3,
    favorite: false,
    enableKit: false,
    enableSleeve: false,
    shipping: false,
    name: 'Surgical guide planning',
    description: 'Planning of a surgical guide',
    imageUrl: null,
    currency: 'BRL',
    price: 45000,
    discount: 0,
    innerProducts: [],
    modifiedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function innerProduct(overrides: Partial<ShopInnerProduct> = {}): ShopInnerProduct {
  return {
    id: 20,
    name: 'Printed guide',
    productKind: 2,
    productCategoryId: 3,
    qtdOption: 1,
    qtdMax: 1,
    manufactureTime: 5,
    enableKit: false,
    enableSleeve: false,
    shipping: false,
    price: 20000,
    ...overrides,
  };
}

/** A combo of a planning and a manufacturing part. */
export function comboProduct(
  manufacture: Partial<ShopInnerProduct> = {},
  overrides: Partial<ShopProduct> = {},
): ShopProduct {
  return shopProduct({
    id: 30,
    code: 'COMBO-GUIDE',
    productType: 2,
    name: 'Guide combo',
    price: 65000,
    discount: 10,
    innerProducts: [
      innerProduct({ id: 10, name: 'Guide planning', productKind: 1, price: 45000 }),
      innerProduct(manufacture),
    ],
    ...overrides,
  });
}

export function adminProduct(overrides: Partial<AdminProduct> = {}): AdminProduct {
  const text = (name: string, price: number) => ({
    name,
    description: `${name} description`,
    price,
    discount: 0,
    publish: true,
  });
  return {
    id: 1,
    productType: 1,
    productCategory: 3,
    code: 'PLAN-GUIDE',
    innerProducts: [],
    image: null,
    imageUrl: null,
    manufactureTime: 3,
    productKind: 1,
    qtdOption: 1,
    qtdMax: 1,
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
    uploadFiles: false,
    downloadFiles: false,
    texts: {
      ptBR: text('Planejamento de guia', 45000),
      en: text('Surgical guide planning', 9000),
      es: text('Planificación de guía', 9000),
    },
    price: 9000,
    discount: 0,
    ...overrides,
  };
}

export function breakdown(overrides: Partial<CheckoutBreakdown> = {}): CheckoutBreakdown {
  return {
    currency: 'BRL',
    lines: [
      {
        cartProductId: 1,
        name: 'Surgical guide planning',
        quantity: 1,
        planningPrice: 123456,
        manufacturePrice: 0,
        sleevesPrice: 0,
        comboDiscount: 0,
        lineDiscount: 0,
      },
    ],
    planningPrice: 123456,
    manufacturePrice: 0,
    sleevesPrice: 0,
    subtotal: 123456,
    comboDiscount: 0,
    couponDiscount: 0,
    instructorDiscount: 0,
    shippingFee: 0,
    total: 123456,
    coupon: null,
    ...overrides,
  };
}

export function quoteResponse(overrides: Partial<QuoteResponse> = {}): QuoteResponse {
  return {
    breakdown: breakdown(),
    problems: {},
    couponRejection: null,
    paymentMethods: ['pix', 'paypal'],
    paymentMethodsUnavailable: null,
    ...overrides,
  };
}
