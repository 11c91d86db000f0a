/**
 * Shop filters: choosing categories clears most-ordered; choosing most-ordered clears
 * categories and text; typing text clears most-ordered.
 */
export interface ShopFilter {
  categories: number[];
  mostOrdered: boolean;
  text: string;
}

export const EMPTY_SHOP_FILTER: ShopFilter = Object.freeze({
  categories: [],
  mostOrdered: false,
  text: '',
}) as ShopFilter;

export type ShopFilterAction =
  | { type: 'setCategories'; categories: readonly number[] }
  | { type: 'setMostOrdered'; mostOrdered: boolean }
  | { type: 'setText'; text: string }
  | { type: 'reset' };

export function shopFilterReducer(state: ShopFilter, action: ShopFilterAction): ShopFilter {
  switch (action.type) {
    case 'setCategories':
      return { ...state, categories: [...new Set(action.categories)], mostOrdered: false };
    case 'setMostOrdered':
      return action.mostOrdered
        ? { categories: [], text: '', mostOrdered: true }
        : { ...state, mostOrdered: false };
    case 'setText':
      return { ...state, text: action.text, mostOrdered: action.text ? false : state.mostOrdered };
    case 'reset':
      return { categories: [], mostOrdered: false, text: '' };
  }
}

/** Does a product pass the category and text filters? (Most-ordered ranking is the server's.) */
export function matchesShopFilter(
  product: { productCategory: number; name: string; code?: string },
  filter: ShopFilter,
): boolean {
  if (filter.categories.length > 0 && !filter.categories.includes(product.productCategory))
    return false;
  const text = filter.text.trim().toLocaleLowerCase();
  if (!text) return true;
  return [product.name, product.code ?? ''].some((field) =>
    field.toLocaleLowerCase().includes(text),
  );
}
