// What the shop module offers other modules; they import nothing else from it.
export {
  type CaseOrderItems,
  loadShippingSettings,
  orderItemsForCase,
  priceCart,
  type ShopUser,
} from './cart-pricing';
export {
  findSetting,
  findShopUser,
  insertTransaction,
  setServicesTransaction,
} from './shop.repository';
