import { pgEnum } from 'drizzle-orm/pg-core';
import { DOCUMENT_KINDS, DOCUMENT_STATUSES } from '@/server/facts/document-statuses';

export const modeEnum = pgEnum('mode', ['test', 'live']);
export const ksefEnvironmentEnum = pgEnum('ksef_environment', ['test', 'demo', 'prod']);
export const documentKindEnum = pgEnum('document_kind', DOCUMENT_KINDS);
export const documentStatusEnum = pgEnum('document_status', DOCUMENT_STATUSES);

export type Mode = (typeof modeEnum.enumValues)[number];
export type KsefEnvironment = (typeof ksefEnvironmentEnum.enumValues)[number];
export type DocumentKind = (typeof documentKindEnum.enumValues)[number];
export type { DocumentStatus } from '@/server/facts/document-statuses';
