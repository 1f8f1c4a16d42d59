import { randomBytes } from 'node:crypto';
import type { SessionKey } from '@/server/ksef/crypto';
import type { FaultState } from './faults';
import type { EmulatorKeys } from './keys';
import type { LimitsMode, LimitsState } from './limits';
import { createFaultState } from './faults';
import { createLimitsState } from './limits';
import { initialLighthouse, type LighthouseState } from './lighthouse';

export type StatusInfo = { code: number; description: string; details?: string[]; extensions?: Record<string, string> | null };

export type AuthMethod = { method: 'Token' | 'QualifiedSeal' | 'QualifiedSignature'; category: 'Token' | 'XadesSignature'; displayName: string };

export type AuthOperation = {
  referenceNumber: string;
  nip: string;
  startDate: Date;
  method: AuthMethod;
  /** Status while the operation is "in progress"; `final` is shown once readyAt has passed. */
  final: StatusInfo;
  readyAt: number;
  redeemed: boolean;
  refreshValidUntil?: Date;
  lastRefresh?: Date;
  /** For the UPO: the KSeF token's reference number, or the SHA-256 of the signed AuthTokenRequest. */
  ksefTokenReference?: string;
  documentDigest?: string;
  /** The login certificate's subject: only a XAdES login has one, and only it may enrol KSeF certificates. */
  subject?: CertificateSubject;
};

/** The DN attributes of GET /certificates/enrollments/data, as the login certificate carries them (OID → value). */
export type CertificateSubject = { nip: string; attributes: { oid: string; value: string }[] };

export type KsefCertificateType = 'Authentication' | 'Offline';

/** A KSeF certificate issued by the emulator (certyfikaty-KSeF.md): owned by the subject that enrolled it. */
export type IssuedCertificate = {
  serialNumber: string;
  name: string;
  type: KsefCertificateType;
  ownerNip: string;
  commonName: string;
  der: Buffer;
  /** Base64 SubjectPublicKeyInfo: a key certified for one subject is refused for another. */
  publicKey: string;
  validFrom: Date;
  validTo: Date;
  requestDate: Date;
  status: 'Active' | 'Revoked';
};

export type Enrollment = {
  referenceNumber: string;
  ownerNip: string;
  requestDate: Date;
  readyAt: number;
  /** Final status, shown once readyAt has passed. */
  final: StatusInfo;
  serialNumber?: string;
};

export type BearerKind = 'authentication' | 'access' | 'refresh';
export type Bearer = { kind: BearerKind; authRef: string; nip: string; validUntil: number };

export type KsefToken = {
  token: string;
  referenceNumber: string;
  nip: string;
  permissions: string[];
  description: string;
  dateCreated: Date;
  lastUseDate?: Date;
  status: 'Active' | 'Revoked';
  /** From this moment the token no longer logs in; null: no end. */
  validTo: Date | null;
};

export type InvoiceRecord = {
  referenceNumber: string;
  ordinalNumber: number;
  sessionRef: string;
  invoiceHash: string;
  invoiceSize: number;
  invoicingDate: Date;
  offline: boolean;
  fileName?: string;
  status: StatusInfo;
  invoiceNumber?: string;
  /** RodzajFaktury, part of the uniqueness key. */
  kind?: string;
  issueDate?: string;
  ksefNumber?: string;
  acquisitionDate?: Date;
  /** Only kept for accepted invoices, for GET /invoices/ksef/{n}. */
  xml?: Buffer;
  /** A technical correction: the hash of the rejected offline invoice it replaces (README §6.6). */
  hashOfCorrectedInvoice?: string;
};

export type BatchPart = { ordinalNumber: number; fileSize: number; fileHash: string; data?: Buffer };

export type Session = {
  referenceNumber: string;
  kind: 'online' | 'batch';
  nip: string;
  authRef: string;
  key?: SessionKey;
  status: StatusInfo;
  dateCreated: Date;
  dateUpdated: Date;
  validUntil: Date;
  closed: boolean;
  invoices: InvoiceRecord[];
  byReference: Map<string, InvoiceRecord>;
  /** Invoices sent but not yet final; the session finishes closing when it reaches 0. */
  pending: number;
  upoReferences: string[];
  batch?: { fileSize: number; fileHash: string; parts: BatchPart[]; offline: boolean; compressionType: 'Zip' | 'TarGz' };
};

export type Counters = {
  requests: Map<string, number>;
  rateLimited: number;
  faults: Map<string, number>;
  invoiceNumbers: Map<string, number>;
  invoiceHashes: Map<string, number>;
  accepted: number;
  rejected: number;
};

export type Lifetimes = { challengeMs: number; authenticationMs: number; accessMs: number; refreshMs: number };

export type EmulatorState = {
  keys: EmulatorKeys;
  secret: Buffer;
  processingDelayMs: number;
  lifetimes: Lifetimes;
  limits: LimitsState;
  faults: FaultState;
  challenges: Map<string, { timestampMs: number; used: boolean }>;
  auths: Map<string, AuthOperation>;
  bearers: Map<string, Bearer>;
  ksefTokens: Map<string, KsefToken>;
  tokenByReference: Map<string, KsefToken>;
  sessions: Map<string, Session>;
  byKsefNumber: Map<string, { session: Session; invoice: InvoiceRecord }>;
  /** (seller NIP, RodzajFaktury, P_2) of accepted invoices, for the 440 duplicate check (README §7). */
  uniqueness: Map<string, { session: Session; invoice: InvoiceRecord }>;
  blockedContexts: Set<string>;
  certificates: Map<string, IssuedCertificate>;
  enrollments: Map<string, Enrollment>;
  timers: Set<NodeJS.Timeout>;
  counters: Counters;
  /** What the status service (Latarnia) answers: lighthouse.ts. */
  lighthouse: LighthouseState;
};

export const DEFAULT_LIFETIMES: Lifetimes = {
  challengeMs: 10 * 60_000,
  authenticationMs: 45 * 60_000,
  accessMs: 15 * 60_000,
  refreshMs: 7 * 24 * 3_600_000,
};

export function createState(opts: { keys: EmulatorKeys; processingDelayMs: number; limits: LimitsMode; seed: number }): EmulatorState {
  return {
    keys: opts.keys,
    secret: randomBytes(32),
    processingDelayMs: opts.processingDelayMs,
    lifetimes: { ...DEFAULT_LIFETIMES },
    limits: createLimitsState(opts.limits),
    faults: createFaultState(opts.seed),
    challenges: new Map(),
    auths: new Map(),
    bearers: new Map(),
    ksefTokens: new Map(),
    tokenByReference: new Map(),
    sessions: new Map(),
    byKsefNumber: new Map(),
    uniqueness: new Map(),
    blockedContexts: new Set(),
    certificates: new Map(),
    enrollments: new Map(),
    timers: new Set(),
    lighthouse: initialLighthouse(),
    counters: {
      requests: new Map(),
      rateLimited: 0,
      faults: new Map(),
      invoiceNumbers: new Map(),
      invoiceHashes: new Map(),
      accepted: 0,
      rejected: 0,
    },
  };
}

export const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/** Runs `fn` after `ms`, or at once for 0; the timers are cleared when the emulator closes. */
export function later(state: EmulatorState, ms: number, fn: () => void): void {
  if (ms <= 0) return fn();
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
