import { describe, expect, it } from 'vitest';
import {
  clampQuantity,
  comboDiscountPercent,
  isCombo,
  isManufacturingKind,
  isPlanningKind,
  isPrintableProduct,
  isProductVisible,
  KINDS_OF_MANUFACTURE,
  PRODUCT_KINDS,
  PRODUCT_TYPES,
  productName,
  productPrice,
  productSchema,
  QTD_OPTIONS,
} from './product';

const texts = {
  ptBR: { name: 'Guia cirúrgico', description: '', price: 50000, discount: 10, publish: true },
  en: { name: 'Surgical guide', description: '', price: 12000, discount: 5, publish: false },
  es: { name: '', description: '', price: 12000, discount: 5, publish: true },
};

describe('product constants', () => {
  it('codes', () => {
    expect(PRODUCT_TYPES).toEqual({ single: 1, combo: 2 });
    expect(PRODUCT_KINDS.planning).toBe(1);
    expect(QTD_OPTIONS).toEqual({ perCase: 1, perArch: 2, perElement: 3 });
    expect(KINDS_OF_MANUFACTURE).toEqual({ providerPrints: 1, shouldPrint: 2, canPrint: 3 });
  });
  it.each([
    [1, true],
    [2, false],
    [5, false],
  ])('kind %i planning → %s', (kind, planning) => {
    expect(isPlanningKind(kind)).toBe(planning);
    expect(isManufacturingKind(kind)).toBe(!planning);
  });

  it.each([
    [PRODUCT_TYPES.single, false],
    [PRODUCT_TYPES.combo, true],
    [3, false],
  ])('product type %i combo → %s', (productType, combo) => {
    expect(isCombo({ productType })).toBe(combo);
  });

  // The provider prints what is manufactured unless the client prints it themselves.
  it.each([
    ['planning → no', PRODUCT_KINDS.planning, false, false],
    ['planning, client prints → no', PRODUCT_KINDS.planning, true, false],
    ['manufacturing → printable', PRODUCT_KINDS.manufacturing, false, true],
    ['manufacturing, client prints → no', PRODUCT_KINDS.manufacturing, true, false],
    ['another manufacturing kind → printable', 5, false, true],
  ])('%s', (_label, productKind, clientPrints, printable) => {
    expect(isPrintableProduct({ productKind, clientPrints })).toBe(printable);
  });

  it('defaults qtdMax and manufactureTime to 1', () => {
    const parsed = productSchema.parse({
      id: 1,
      productType: 1,
      productCategory: 3,
      code: 'G',
      innerProducts: [],
      image: null,
      productKind: 2,
      qtdOption: 3,
      alignment: false,
      favorite: false,
      kindOfManufacture: 1,
      enableKit: true,
      enableSleeve: false,
      mockup: false,
      shipping: true,
      clientPrints: false,
      createdAt: 't',
      modifiedAt: 't',
      deletedAt: null,
      uploadFiles: true,
      downloadFiles: false,
      texts,
      price: 50000,
      discount: 0,
    });
    expect(parsed.qtdMax).toBe(1);
    expect(parsed.manufactureTime).toBe(1);
  });
});

describe('per-language price, discount, name, visibility', () => {
  const product = { texts, price: 1, discount: 0, productType: 2 as const, deletedAt: null };
  it.each([
    ['ptBR', 50000, 10, 'Guia cirúrgico', true],
    ['en', 12000, 5, 'Surgical guide', false],
    ['es', 12000, 5, 'Surgical guide', true],
  ] as const)('%s', (language, price, discount, name, visible) => {
    expect(productPrice(product, language)).toBe(price);
    expect(comboDiscountPercent(product, language)).toBe(discount);
    expect(productName(product, language)).toBe(name);
    expect(isProductVisible(product, language)).toBe(visible);
  });
  it('single products have no combo discount; deleted products are hidden', () => {
    expect(comboDiscountPercent({ ...product, productType: 1 }, 'ptBR')).toBe(0);
    expect(isProductVisible({ ...product, deletedAt: 'x' }, 'ptBR')).toBe(false);
  });
});

describe('quantity between 1 and qtdMax (default 1)', () => {
  it.each([
    [5, 3, 3],
    [0, 3, 1],
    [-2, 3, 1],
    [2.7, 3, 2],
    [4, undefined, 1],
    [Number.NaN, 3, 1],
  ])('%d with max %s → %i', (quantity, max, result) =>
    expect(clampQuantity(quantity, max)).toBe(result),
  );
});
