// What the products module offers other modules; they import nothing else from it.
export { findProduct, findProductsByIds, type ProductRow } from './product-lookup';
