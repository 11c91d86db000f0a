// The sandboxes as server tests start them (in-process, on a free port each).
export * from './pagbank-sandbox';
export * from './paypal-sandbox';
