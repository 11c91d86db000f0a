import { describe, expect, it } from 'vitest';
import {
  EMPTY_SHOP_FILTER,
  matchesShopFilter,
  shopFilterReducer,
  type ShopFilter,
} from './shop-filter';

const state = (patch: Partial<ShopFilter>): ShopFilter => ({ ...EMPTY_SHOP_FILTER, ...patch });

describe('shop filters', () => {
  it.each([
    [
      'categories clear most-ordered',
      state({ mostOrdered: true }),
      { type: 'setCategories', categories: [1, 3] },
      state({ categories: [1, 3] }),
    ],
    [
      'categories keep text',
      state({ text: 'guide' }),
      { type: 'setCategories', categories: [2] },
      state({ categories: [2], text: 'guide' }),
    ],
    [
      'most-ordered clears categories and text',
      state({ categories: [1], text: 'guide' }),
      { type: 'setMostOrdered', mostOrdered: true },
      state({ mostOrdered: true }),
    ],
    [
      'unsetting most-ordered keeps the rest',
      state({ mostOrdered: true }),
      { type: 'setMostOrdered', mostOrdered: false },
      state({}),
    ],
    [
      'text clears most-ordered',
      state({ mostOrdered: true }),
      { type: 'setText', text: 'g' },
      state({ text: 'g' }),
    ],
    [
      'text keeps categories',
      state({ categories: [4] }),
      { type: 'setText', text: 'g' },
      state({ categories: [4], text: 'g' }),
    ],
    ['reset', state({ categories: [4], text: 'x' }), { type: 'reset' }, state({})],
  ] as const)('%s', (_, before, action, after) =>
    expect(shopFilterReducer(before, action)).toEqual(after),
  );

  it.each([
    [{ productCategory: 3, name: 'Surgical guide', code: 'SG1' }, state({}), true],
    [{ productCategory: 3, name: 'Surgical guide' }, state({ categories: [3] }), true],
    [{ productCategory: 3, name: 'Surgical guide' }, state({ categories: [1] }), false],
    [{ productCategory: 3, name: 'Surgical guide' }, state({ text: 'GUIDE' }), true],
    [{ productCategory: 3, name: 'Surgical guide', code: 'SG1' }, state({ text: 'sg1' }), true],
    [{ productCategory: 3, name: 'Surgical guide' }, state({ text: 'crown' }), false],
  ])('%j with %j → %s', (product, filter, ok) =>
    expect(matchesShopFilter(product, filter)).toBe(ok),
  );
});
