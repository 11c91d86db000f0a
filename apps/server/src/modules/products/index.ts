// What the products module offers other modules; they import nothing else from it.
export { findProduct, findProductsByIds } from './product-lookup';
