import { createHash } from 'node:crypto';
import { z } from 'zod';
import { decryptAes, decryptRsaOaep, type SessionKey } from '@/server/ksef/crypto';
import { json, readJson, type Ctx } from './context';
import { KsefFailure, fail, newReferenceNumber, type Reply } from './kit';
import { INVOICE_STATUS, MAX_INVOICE_BYTES, SESSION_STATUS, enqueueInvoice, finishSessionIfDone } from './processing';
import { checkPresigned, presign } from './storage';
import type { EmulatorState, InvoiceRecord, Session } from './state';
import { requireBearer } from './tokens';
import { buildInvoiceUpo, buildSessionUpo } from './upo';

export const ZBase64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected Base64');
const ZSha256 = ZBase64.length(44);

export const ZFormCode = z.object({ systemCode: z.string(), schemaVersion: z.string(), value: z.string() });
export const ZEncryption = z.object({
  encryptedSymmetricKey: ZBase64.min(1),
  initializationVector: ZBase64.min(1),
  publicKeyId: z.string().length(44).nullish(),
});

const ZOpenOnlineSession = z.object({ formCode: ZFormCode, encryption: ZEncryption });

const ZSendInvoice = z.object({
  invoiceHash: ZSha256,
  invoiceSize: z.number().int().min(1),
  encryptedInvoiceHash: ZSha256,
  encryptedInvoiceSize: z.number().int().min(1),
  encryptedInvoiceContent: ZBase64.min(1),
  offlineMode: z.boolean().optional(),
  hashOfCorrectedInvoice: ZSha256.nullish(),
});

const SESSION_LIFETIME_MS = 12 * 3_600_000;
const MAX_INVOICES = 10_000;
const LINK_TTL_MS = 60 * 60_000;

/** Only FA(3) is emulated: its schema is the one the emulator validates against. */
export function checkFormCode(form: z.infer<typeof ZFormCode>): void {
  if (form.systemCode !== 'FA (3)' || form.schemaVersion !== '1-0E' || form.value !== 'FA') {
    throw fail.validation([`formCode: emulator obsługuje tylko FA (3) / 1-0E / FA, otrzymano ${form.systemCode} / ${form.schemaVersion} / ${form.value}.`]);
  }
}

/** Unwraps the AES key; a key that does not decrypt leaves the session in 415 rather than refusing the request. */
export function unwrapSessionKey(state: EmulatorState, enc: z.infer<typeof ZEncryption>): SessionKey | undefined {
  const key = state.keys.SymmetricKeyEncryption;
  if (enc.publicKeyId && enc.publicKeyId !== key.publicKeyId) throw fail.publicKey(enc.publicKeyId);
  const iv = Buffer.from(enc.initializationVector, 'base64');
  if (iv.length !== 16) throw fail.validation(['encryption.initializationVector: wymagane 16 bajtów.']);
  try {
    const aes = decryptRsaOaep(key.privateKey, Buffer.from(enc.encryptedSymmetricKey, 'base64'));
    return aes.length === 32 ? { key: aes, iv } : undefined;
  } catch {
    return undefined;
  }
}

export function newSession(ctx: Ctx, kind: 'online' | 'batch', key: SessionKey | undefined): Session {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'access');
  const now = new Date();
  const open = kind === 'online' ? SESSION_STATUS.online.open : SESSION_STATUS.batch.open;
  const session: Session = {
    referenceNumber: newReferenceNumber(kind === 'online' ? 'SO' : 'SB', now),
    kind,
    nip: bearer.nip,
    authRef: bearer.authRef,
    key,
    status: key ? open : SESSION_STATUS.keyDecryption,
    dateCreated: now,
    dateUpdated: now,
    validUntil: new Date(now.getTime() + SESSION_LIFETIME_MS),
    closed: false,
    invoices: [],
    byReference: new Map(),
    pending: 0,
    upoReferences: [],
  };
  ctx.state.sessions.set(session.referenceNumber, session);
  return session;
}

export function openOnlineSession(ctx: Ctx): Reply {
  requireBearer(ctx.state, ctx.headers.authorization, 'access');
  const body = readJson(ctx, ZOpenOnlineSession);
  checkFormCode(body.formCode);
  const session = newSession(ctx, 'online', unwrapSessionKey(ctx.state, body.encryption));
  return json(201, { referenceNumber: session.referenceNumber, validUntil: session.validUntil.toISOString() });
}

/** The caller's session: a session of another context looks exactly like a missing one. */
export function ownSession(ctx: Ctx): Session {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'access');
  const ref = ctx.params.ref ?? '';
  const session = ctx.state.sessions.get(ref);
  if (!session || session.nip !== bearer.nip) throw fail.sessionUnknown(ref);
  return session;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('base64');

export function addInvoice(ctx: Ctx, session: Session, plain: Buffer, opts: { invoicingDate: Date; offline: boolean; fileName?: string }): InvoiceRecord {
  const inv: InvoiceRecord = {
    referenceNumber: newReferenceNumber('EE'),
    ordinalNumber: session.invoices.length + 1,
    sessionRef: session.referenceNumber,
    invoiceHash: sha256(plain),
    invoiceSize: plain.length,
    invoicingDate: opts.invoicingDate,
    offline: opts.offline,
    fileName: opts.fileName,
    status: INVOICE_STATUS.received,
    invoiceNumber: /<(?:[\w.-]+:)?P_2>([^<]*)</.exec(plain.toString('utf8'))?.[1]?.trim(),
  };
  session.invoices.push(inv);
  session.byReference.set(inv.referenceNumber, inv);
  enqueueInvoice(ctx.state, session, inv, plain, ctx.faults);
  return inv;
}

export function sendInvoice(ctx: Ctx): Reply {
  const session = ownSession(ctx);
  if (session.kind !== 'online' || session.status.code !== 100 || session.closed) throw fail.sessionState(session.referenceNumber, session.status.code);
  if (session.validUntil.getTime() <= Date.now()) throw fail.sessionState(session.referenceNumber, 170);
  if (session.invoices.length >= MAX_INVOICES) throw fail.invoiceLimit();
  const body = readJson(ctx, ZSendInvoice);
  const cipher = Buffer.from(body.encryptedInvoiceContent, 'base64');
  if (cipher.length !== body.encryptedInvoiceSize) throw fail.size(`encryptedInvoiceSize ${body.encryptedInvoiceSize} ≠ ${cipher.length} bajtów treści.`);
  if (sha256(cipher) !== body.encryptedInvoiceHash) throw fail.hash('encryptedInvoiceHash nie odpowiada zaszyfrowanej treści.');
  if (body.invoiceSize > MAX_INVOICE_BYTES) throw fail.size(`Faktura przekracza ${MAX_INVOICE_BYTES} bajtów.`);
  let plain: Buffer;
  try {
    plain = decryptAes(cipher, session.key as SessionKey);
  } catch {
    throw fail.validation(['Nie można odszyfrować faktury kluczem sesji.']);
  }
  if (plain.length !== body.invoiceSize) throw fail.size(`invoiceSize ${body.invoiceSize} ≠ ${plain.length} bajtów po odszyfrowaniu.`);
  if (sha256(plain) !== body.invoiceHash) throw fail.hash('invoiceHash nie odpowiada odszyfrowanej treści.');
  if (body.hashOfCorrectedInvoice) checkTechnicalCorrection(ctx, session, body.hashOfCorrectedInvoice, body.offlineMode ?? false);
  const inv = addInvoice(ctx, session, plain, { invoicingDate: new Date(), offline: body.offlineMode ?? false });
  if (body.hashOfCorrectedInvoice) inv.hashOfCorrectedInvoice = body.hashOfCorrectedInvoice;
  return json(202, { referenceNumber: inv.referenceNumber });
}

/** Rejections a technical correction may fix: file, schema and duplicate problems, not permissions (README §6.6). */
const TECHNICAL_REJECTIONS = new Set([430, 440, 450]);

/**
 * A technical correction (offline/korekta-techniczna.md): offlineMode true, interactive session, and the hash names an
 * offline invoice of this seller that KSeF rejected for a technical reason (else 21167) and that has no accepted or
 * pending correction yet (else 21166).
 */
function checkTechnicalCorrection(ctx: Ctx, session: Session, hash: string, offlineMode: boolean): void {
  if (!offlineMode) throw fail.validation(['hashOfCorrectedInvoice: korekta techniczna wymaga offlineMode = true.']);
  const mine = [...ctx.state.sessions.values()].filter((s) => s.nip === session.nip).flatMap((s) => s.invoices);
  const originals = mine.filter((i) => i.invoiceHash === hash);
  const refusal = (detail: string) => new KsefFailure(400, 21167, 'Status faktury nie pozwala na korektę techniczną.', [detail]);
  if (originals.length === 0) throw refusal(`Brak faktury o skrócie ${hash}.`);
  if (originals.some((i) => i.status.code === 200)) throw refusal('Faktura została przetworzona poprawnie.');
  if (originals.some((i) => i.status.code < 300)) throw refusal('Faktura jest w trakcie przetwarzania.');
  if (!originals.some((i) => i.offline && TECHNICAL_REJECTIONS.has(i.status.code)))
    throw refusal('Korekta techniczna dotyczy tylko faktur offline odrzuconych z przyczyn technicznych.');
  if (mine.some((i) => i.hashOfCorrectedInvoice === hash && i.status.code < 300)) {
    throw new KsefFailure(400, 21166, 'Korekta techniczna niedostępna.', ['Faktura ma już poprawnie przetworzoną korektę techniczną.']);
  }
}

export function closeOnlineSession(ctx: Ctx): Reply {
  const session = ownSession(ctx);
  if (session.kind !== 'online' || session.status.code !== 100 || session.closed) throw fail.sessionState(session.referenceNumber, session.status.code);
  session.closed = true;
  session.status = SESSION_STATUS.online.closed;
  session.dateUpdated = new Date();
  finishSessionIfDone(session);
  return { status: 204 };
}

function upoPages(ctx: Ctx, session: Session) {
  return session.upoReferences.map((referenceNumber) => {
    const link = presign(ctx.state, ctx.origin, `/storage/upo/${session.referenceNumber}/${referenceNumber}`, LINK_TTL_MS);
    return { referenceNumber, downloadUrl: link.url, downloadUrlExpirationDate: link.expires.toISOString() };
  });
}

export function sessionStatus(ctx: Ctx): Reply {
  const session = ownSession(ctx);
  const succeeded = session.invoices.filter((i) => i.status.code === 200).length;
  const failed = session.invoices.filter((i) => i.status.code >= 300).length;
  return json(200, {
    status: session.status,
    dateCreated: session.dateCreated.toISOString(),
    dateUpdated: session.dateUpdated.toISOString(),
    validUntil: session.validUntil.toISOString(),
    ...(session.upoReferences.length ? { upo: { pages: upoPages(ctx, session) } } : {}),
    invoiceCount: session.invoices.length,
    successfulInvoiceCount: succeeded,
    failedInvoiceCount: failed,
  });
}

function invoiceView(ctx: Ctx, session: Session, inv: InvoiceRecord) {
  const link = inv.ksefNumber ? presign(ctx.state, ctx.origin, `/storage/upo/${session.referenceNumber}/${inv.referenceNumber}`, LINK_TTL_MS) : undefined;
  return {
    ordinalNumber: inv.ordinalNumber,
    invoiceNumber: inv.invoiceNumber ?? null,
    ...(inv.ksefNumber ? { ksefNumber: inv.ksefNumber } : {}),
    referenceNumber: inv.referenceNumber,
    invoiceHash: inv.invoiceHash,
    invoiceFileName: inv.fileName ?? null,
    acquisitionDate: inv.acquisitionDate?.toISOString() ?? null,
    invoicingDate: inv.invoicingDate.toISOString(),
    permanentStorageDate: inv.acquisitionDate?.toISOString() ?? null,
    upoDownloadUrl: link?.url ?? null,
    upoDownloadUrlExpirationDate: link?.expires.toISOString() ?? null,
    invoicingMode: inv.offline ? 'Offline' : 'Online',
    status: inv.status,
  };
}

export function invoiceStatus(ctx: Ctx): Reply {
  const session = ownSession(ctx);
  const inv = session.byReference.get(ctx.params.invoiceRef ?? '');
  if (!inv) throw fail.invoiceUnknown(ctx.params.invoiceRef ?? '');
  return json(200, invoiceView(ctx, session, inv));
}

/** Lists with KSeF's paging: pageSize 10–1000 (default 10), x-continuation-token from the previous page. */
function listInvoices(ctx: Ctx, onlyFailed: boolean): Reply {
  const session = ownSession(ctx);
  const pageSize = Number(ctx.query.get('pageSize') ?? 10);
  if (!Number.isInteger(pageSize) || pageSize < 10 || pageSize > 1000) throw fail.validation(['pageSize: wymagana liczba 10–1000.']);
  const token = ctx.headers['x-continuation-token'];
  const offset = typeof token === 'string' && token ? Number(Buffer.from(token, 'base64url').toString()) || 0 : 0;
  const all = onlyFailed ? session.invoices.filter((i) => i.status.code >= 300) : session.invoices;
  const page = all.slice(offset, offset + pageSize);
  const next = offset + pageSize < all.length ? Buffer.from(String(offset + pageSize)).toString('base64url') : null;
  return json(200, { continuationToken: next, invoices: page.map((i) => invoiceView(ctx, session, i)) });
}

export const listSessionInvoices = (ctx: Ctx) => listInvoices(ctx, false);
export const listFailedInvoices = (ctx: Ctx) => listInvoices(ctx, true);

const xmlReply = (xml: string): Reply => ({
  status: 200,
  body: xml,
  contentType: 'application/xml',
  headers: { 'x-ms-meta-hash': sha256(Buffer.from(xml, 'utf8')) },
});

function invoiceUpo(ctx: Ctx, session: Session, inv: InvoiceRecord | undefined, what: string): Reply {
  if (!inv?.ksefNumber) throw fail.upoUnknown(`Brak UPO dla ${what}.`);
  return xmlReply(buildInvoiceUpo(session, ctx.state.auths.get(session.authRef), inv));
}

export function invoiceUpoByReference(ctx: Ctx): Reply {
  const session = ownSession(ctx);
  return invoiceUpo(ctx, session, session.byReference.get(ctx.params.invoiceRef ?? ''), ctx.params.invoiceRef ?? '');
}

export function invoiceUpoByKsefNumber(ctx: Ctx): Reply {
  const session = ownSession(ctx);
  const found = ctx.state.byKsefNumber.get(ctx.params.ksefNumber ?? '');
  return invoiceUpo(ctx, session, found?.session === session ? found.invoice : undefined, ctx.params.ksefNumber ?? '');
}

function sessionUpo(ctx: Ctx, session: Session, upoRef: string): Reply {
  const page = session.upoReferences.indexOf(upoRef) + 1;
  if (page === 0) throw fail.upoUnknown(`Brak UPO ${upoRef} w sesji ${session.referenceNumber}.`);
  return xmlReply(buildSessionUpo(session, ctx.state.auths.get(session.authRef), page));
}

export const sessionUpoPage = (ctx: Ctx) => sessionUpo(ctx, ownSession(ctx), ctx.params.upoRef ?? '');

/** GET /storage/upo/{session}/{invoice or UPO page}: the pre-signed link, no Authorization. */
export function presignedUpo(ctx: Ctx): Reply {
  if (!checkPresigned(ctx.state, ctx.path, ctx.query)) return { status: 403, body: 'AuthenticationFailed', contentType: 'text/plain' };
  const session = ctx.state.sessions.get(ctx.params.ref ?? '');
  const id = ctx.params.id ?? '';
  if (!session) return { status: 404, body: 'BlobNotFound', contentType: 'text/plain' };
  const inv = session.byReference.get(id);
  return inv ? invoiceUpo(ctx, session, inv, id) : sessionUpo(ctx, session, id);
}

export function downloadInvoice(ctx: Ctx): Reply {
  const bearer = requireBearer(ctx.state, ctx.headers.authorization, 'access');
  const found = ctx.state.byKsefNumber.get(ctx.params.ksefNumber ?? '');
  if (!found?.invoice.xml || found.session.nip !== bearer.nip) throw fail.invoiceUnknown(ctx.params.ksefNumber ?? '');
  return { status: 200, body: found.invoice.xml, contentType: 'application/xml', headers: { 'x-ms-meta-hash': found.invoice.invoiceHash } };
}
