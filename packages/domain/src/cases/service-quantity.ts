import { QTD_OPTIONS } from '../shop/product';

/** Teeth in both jaws: the most a per-element service can count. */
export const MAX_ELEMENTS = 28;

/**
 * The quantities a case service of a product may have. Per case: 1 up to the
 * product's qtdMax (default 1); per arch: 1–2; per element (tooth): 1–28.
 */
export function serviceQuantityRange(product: { qtdOption: number; qtdMax: number }): {
  min: number;
  max: number;
} {
  if (product.qtdOption === QTD_OPTIONS.perArch) return { min: 1, max: 2 };
  if (product.qtdOption === QTD_OPTIONS.perElement) return { min: 1, max: MAX_ELEMENTS };
  return { min: 1, max: Math.max(1, Math.floor(product.qtdMax || 1)) };
}

export function isServiceQuantityValid(
  product: { qtdOption: number; qtdMax: number },
  quantity: number,
): boolean {
  const { min, max } = serviceQuantityRange(product);
  return Number.isInteger(quantity) && quantity >= min && quantity <= max;
}
