// What the products module offers other modules; they import nothing else from it.
export { findProductsByIds } from './product-lookup';
