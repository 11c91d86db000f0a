/** Query keys of the shop feature, in one place so mutations invalidate the right entries. */
export const shopKeys = {
  all: ['shop'] as const,
  products: () => ['shop', 'products'] as const,
  product: (scope: string, id: number) => ['shop', 'product', scope, id] as const,
  sleeves: (currency: string) => ['shop', 'sleeves', currency] as const,
  addresses: () => ['shop', 'addresses'] as const,
  shipping: (zipCode: string, currency: string) => ['shop', 'shipping', zipCode, currency] as const,
  quote: (request: string) => ['shop', 'quote', request] as const,
  coupon: (code: string, cart: string) => ['shop', 'coupon', code, cart] as const,
};
