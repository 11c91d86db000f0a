// What the payments module offers other modules; they import nothing else from it.
export { openTransaction, recordTransactionOpened, startTransaction } from './open-transaction';
export { createTransactionViews } from './transaction-views';
