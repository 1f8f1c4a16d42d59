import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { z } from 'zod';
import { decryptAes } from '@/server/ksef/crypto';
import { json, readJson, type Ctx } from './context';
import { fail, type Reply } from './kit';
import { SESSION_STATUS, finishSessionIfDone } from './processing';
import { addInvoice, checkFormCode, newSession, ownSession, unwrapSessionKey, ZBase64, ZEncryption, ZFormCode } from './sessions';
import { later, type Session, type StatusInfo } from './state';
import { checkPresigned, presign } from './storage';
import { untarGzSync } from './tar-gz';
import { requireBearer } from './tokens';

const ZSha256 = ZBase64.length(44);
const ZOpenBatchSession = z.object({
  formCode: ZFormCode,
  batchFile: z.object({
    fileSize: z.number().int().min(1).max(5_000_000_000),
    fileHash: ZSha256,
    compressionType: z.enum(['Zip', 'TarGz']).optional(),
    fileParts: z
      .array(z.object({ ordinalNumber: z.number().int().min(1), fileSize: z.number().int().min(1), fileHash: ZSha256 }))
      .min(1)
      .max(50),
  }),
  encryption: ZEncryption,
  offlineMode: z.boolean().optional(),
});

const MAX_BATCH_INVOICES = 10_000;
const PART_WINDOW_MS = 20 * 60_000;
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('base64');

export function openBatchSession(ctx: Ctx): Reply {
  requireBearer(ctx.state, ctx.headers.authorization, 'access');
  const body = readJson(ctx, ZOpenBatchSession);
  checkFormCode(body.formCode);
  const ordinals = body.batchFile.fileParts.map((p) => p.ordinalNumber).sort((a, b) => a - b);
  if (ordinals.some((n, i) => n !== i + 1)) throw fail.validation(['batchFile.fileParts: numery części muszą być kolejne od 1.']);
  const session = newSession(ctx, 'batch', unwrapSessionKey(ctx.state, body.encryption));
  session.batch = {
    fileSize: body.batchFile.fileSize,
    fileHash: body.batchFile.fileHash,
    parts: body.batchFile.fileParts.map((p) => ({ ...p })),
    offline: body.offlineMode ?? false,
    compressionType: body.batchFile.compressionType ?? 'Zip',
  };
  const ttl = PART_WINDOW_MS * body.batchFile.fileParts.length;
  const partUploadRequests = session.batch.parts.map((p) => ({
    ordinalNumber: p.ordinalNumber,
    method: 'PUT',
    url: presign(ctx.state, ctx.origin, `/storage/batch/${session.referenceNumber}/${p.ordinalNumber}`, ttl).url,
    headers: { 'x-ms-blob-type': 'BlockBlob' },
  }));
  return json(201, { referenceNumber: session.referenceNumber, partUploadRequests });
}

/** PUT /storage/batch/{session}/{ordinal}: raw encrypted bytes, no Authorization, checked at close. */
export function uploadPart(ctx: Ctx): Reply {
  if (!checkPresigned(ctx.state, ctx.path, ctx.query)) return { status: 403, body: 'AuthenticationFailed', contentType: 'text/plain' };
  const session = ctx.state.sessions.get(ctx.params.ref ?? '');
  const part = session?.batch?.parts.find((p) => p.ordinalNumber === Number(ctx.params.ordinal));
  if (!session || !part) return { status: 404, body: 'BlobNotFound', contentType: 'text/plain' };
  if (session.closed) return { status: 400, body: 'Session closed', contentType: 'text/plain' };
  part.data = Buffer.from(ctx.body);
  return { status: 201 };
}

function failBatch(session: Session, status: StatusInfo): void {
  session.status = status;
  session.dateUpdated = new Date();
}

/** Decrypt, join, check, unpack (Zip or TarGz, as declared at open), then every XML file becomes an invoice of its own (README §8). */
function processPackage(ctx: Ctx, session: Session): void {
  const batch = session.batch;
  if (!batch || !session.key) return failBatch(session, SESSION_STATUS.keyDecryption);
  const plainParts: Buffer[] = [];
  for (const part of batch.parts) {
    try {
      plainParts.push(decryptAes(part.data ?? Buffer.alloc(0), session.key));
    } catch {
      return failBatch(session, { code: 435, description: 'Błąd odszyfrowania pliku', details: [`Część ${part.ordinalNumber}.`] });
    }
  }
  const archive = Buffer.concat(plainParts);
  if (archive.length !== batch.fileSize || sha256(archive) !== batch.fileHash) {
    return failBatch(session, {
      code: 405,
      description: 'Błąd weryfikacji poprawności dostarczonego pakietu',
      details: ['Rozmiar lub skrót paczki nie odpowiada deklaracji.'],
    });
  }
  let files: Record<string, Uint8Array>;
  try {
    files = batch.compressionType === 'TarGz' ? untarGzSync(archive) : unzipSync(archive);
  } catch (err) {
    return failBatch(session, { code: 430, description: 'Błąd dekompresji pierwotnego archiwum', details: [err instanceof Error ? err.message : String(err)] });
  }
  const names = Object.keys(files).filter((n) => !n.endsWith('/'));
  if (names.length > MAX_BATCH_INVOICES) return failBatch(session, { code: 420, description: 'Przekroczony limit faktur w sesji' });
  for (const name of names) {
    addInvoice(ctx, session, Buffer.from(files[name] ?? new Uint8Array()), { invoicingDate: session.dateCreated, offline: batch.offline, fileName: name });
  }
  finishSessionIfDone(session);
}

export function closeBatchSession(ctx: Ctx): Reply {
  const session = ownSession(ctx);
  if (session.kind !== 'batch' || session.status.code !== 100 || session.closed) throw fail.sessionState(session.referenceNumber, session.status.code);
  for (const part of session.batch?.parts ?? []) {
    if (!part.data) throw fail.partMissing(part.ordinalNumber);
    if (part.data.length !== part.fileSize) throw fail.partSize(`Część ${part.ordinalNumber}: ${part.data.length} ≠ ${part.fileSize} bajtów.`);
  }
  session.closed = true;
  session.status = SESSION_STATUS.batch.processing;
  session.dateUpdated = new Date();
  for (const part of session.batch?.parts ?? []) {
    if (part.data && sha256(part.data) !== part.fileHash) {
      failBatch(session, {
        code: 405,
        description: 'Błąd weryfikacji poprawności dostarczonego pakietu',
        details: [`Skrót części ${part.ordinalNumber} nie odpowiada deklaracji.`],
      });
      return { status: 204 };
    }
  }
  const { state } = ctx;
  later(state, state.processingDelayMs, () => processPackage(ctx, session));
  return { status: 204 };
}
