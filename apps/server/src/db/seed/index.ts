/**
 * What the server seeds on start. Reference data (`reference/`) every install needs and is
 * ensured on every start; demo data (`demo/`: accounts with a public password, catalogue, shop,
 * cases) only on an empty database and only when `SEED_DEMO` allows it (config `seedDemo`).
 */
export { ensureReferenceData } from './reference/product-categories';
export { DEMO_PASSWORD, demoEmail, findDemoAccounts } from './demo/accounts';
export { seedDemoData } from './demo/demo-data';
