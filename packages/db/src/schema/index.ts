export * from './orgs';
export * from './api-keys';
export * from './memory';
export * from './workstreams';
export * from './audit';
export * from './idempotency';
export * from './memory-search';
export * from './oauth';
