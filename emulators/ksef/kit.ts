import { randomBytes, randomUUID } from 'node:crypto';
import { crc8 } from '@/server/ksef/ksef-number';

/** A KSeF refusal: rendered as ExceptionResponse, or problem+json when the client asks (README §3). */
export class KsefFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly description: string,
    readonly details: string[] = [],
    readonly reasonCode?: string,
  ) {
    super(`${status} ${code} ${description}`);
  }
}

/** The documented synchronous codes the emulator gives (README §5, §6, §8). */
export const fail = {
  validation: (details: string[]) => new KsefFailure(400, 21405, 'Błąd walidacji danych wejściowych.', details),
  challenge: (detail: string) => new KsefFailure(400, 21111, 'Nieprawidłowe wyzwanie autoryzacyjne.', [detail]),
  publicKey: (id: string) => new KsefFailure(400, 21470, 'Nieprawidłowy identyfikator klucza publicznego.', [`Nieznany klucz: ${id}`]),
  authUnknown: (ref: string) => new KsefFailure(400, 21304, 'Brak uwierzytelnienia.', [`Operacja uwierzytelnienia ${ref} nie istnieje.`]),
  redeemed: (detail: string) => new KsefFailure(400, 21301, 'Brak autoryzacji.', [detail]),
  sessionUnknown: (ref: string) => new KsefFailure(400, 21173, 'Brak sesji o wskazanym numerze referencyjnym.', [`Sesja ${ref} nie istnieje.`]),
  sessionState: (ref: string, code: number) =>
    new KsefFailure(400, 21180, 'Status sesji nie pozwala na wykonanie operacji.', [`Sesja ${ref} ma status ${code}.`]),
  invoiceLimit: () => new KsefFailure(400, 21155, 'Przekroczono dozwoloną liczbę faktur w sesji.'),
  size: (detail: string) => new KsefFailure(400, 21402, 'Nieprawidłowy rozmiar pliku.', [detail]),
  hash: (detail: string) => new KsefFailure(400, 21403, 'Nieprawidłowy skrót pliku.', [detail]),
  upoUnknown: (detail: string) => new KsefFailure(400, 21178, 'Nie znaleziono UPO dla podanych kryteriów.', [detail]),
  invoiceUnknown: (ref: string) => new KsefFailure(400, 21164, 'Faktura o podanym identyfikatorze nie istnieje.', [ref]),
  partMissing: (ordinal: number) => new KsefFailure(400, 21205, 'Pakiet nie może być pusty.', [`Brak części ${ordinal}.`]),
  partSize: (detail: string) => new KsefFailure(400, 21157, 'Nieprawidłowy rozmiar części pakietu.', [detail]),
  unauthorized: (detail: string) => new KsefFailure(401, 0, 'Unauthorized', [detail]),
  forbidden: (detail: string, reasonCode: string) => new KsefFailure(403, 0, 'Forbidden', [detail], reasonCode),
  notFound: (path: string) => new KsefFailure(404, 0, 'Not Found', [`No endpoint ${path}.`]),
  gone: (detail: string) => new KsefFailure(410, 0, 'Gone', [detail]),
};

export type Reply = {
  status: number;
  json?: unknown;
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
};

export const traceId = () => randomUUID().replace(/-/g, '');

export function renderFailure(f: KsefFailure, path: string, problemDetails: boolean): Reply {
  const timestamp = new Date().toISOString();
  if (f.status === 400 && !problemDetails) {
    return {
      status: 400,
      json: {
        exception: {
          exceptionDetailList: [{ exceptionCode: f.code, exceptionDescription: f.description, details: f.details }],
          serviceCode: traceId(),
          serviceCtx: 'srvKSEFEMU',
          serviceName: 'ksef-emulator',
          timestamp,
        },
      },
    };
  }
  const base = { title: f.description, status: f.status, instance: path, detail: f.details.join(' ') || f.description, timestamp, traceId: traceId() };
  const body =
    f.status === 400
      ? { ...base, title: 'Bad Request', errors: [{ code: f.code, description: f.description, details: f.details }] }
      : f.status === 403
        ? { ...base, reasonCode: f.reasonCode ?? 'missing-permissions' }
        : base;
  return { status: f.status, json: body, contentType: 'application/problem+json' };
}

/**
 * Reference numbers look like `20250625-SO-2C3E6C8000-B675CF5D68-07` (README §3): date, a two-letter kind,
 * 20 hex digits and CRC-8 over the first 33 characters.
 */
export function newReferenceNumber(kind: 'CR' | 'AU' | 'SO' | 'SB' | 'EE' | 'EU' | 'EC' | 'EH', now = new Date()): string {
  const hex = randomBytes(10).toString('hex').toUpperCase();
  const body = `${warsawDay(now)}-${kind}-${hex.slice(0, 10)}-${hex.slice(10)}`;
  return `${body}-${crc8(body)}`;
}

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit' });
const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Warsaw', timeZoneName: 'longOffset' });

/** YYYYMMDD of the Warsaw calendar day. */
export const warsawDay = (d: Date): string => dayFormat.format(d).replace(/-/g, '');

/** YYYY-MM-DD of the Warsaw calendar day. */
export const warsawDate = (d: Date): string => dayFormat.format(d);

/** Local Warsaw time with its offset, as in the official UPO examples (`2025-09-16T11:05:40.841+02:00`). */
export function warsawIso(d: Date): string {
  const offset =
    offsetFormat
      .formatToParts(d)
      .find((p) => p.type === 'timeZoneName')
      ?.value.replace('GMT', '') || '+00:00';
  const sign = offset.startsWith('-') ? -1 : 1;
  const [h, m] = offset.slice(1).split(':').map(Number);
  const local = new Date(d.getTime() + sign * ((h ?? 0) * 60 + (m ?? 0)) * 60_000);
  return `${local.toISOString().slice(0, 23)}${offset}`;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
