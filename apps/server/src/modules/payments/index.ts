// What the payments module offers other modules; they import nothing else from it.
export {
  openTransaction,
  recordTransactionOpened,
  startTransaction,
  type NewTransaction,
} from './open-transaction';
export { createTransactionViews, type TransactionViews } from './transaction-views';
