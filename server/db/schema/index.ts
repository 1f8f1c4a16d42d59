export * from './enums';
export * from './accounts';
export * from './documents';
export * from './events';
export * from './infra';
export * from './ksef-volume';
export * from './stores';
export * from './attention';
