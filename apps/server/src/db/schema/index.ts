export * from './accounts';
export * from './catalog';
export * from './cases';
export * from './shop';
export * from './payments';
export * from './conversation';
export * from './announcement-dismissals';
export * from './two-factor';
