import { z } from 'zod';
import { getDocument } from '../documents/get-document';
import { AppError } from '../errors';
import type { Endpoint } from '../http/route';
import { parseParams } from '../http/validate';

const ZDocumentId = z.string().regex(/^(inv|cor)_[0-9A-Za-z]{1,64}$/, 'must be an inv_ or cor_ id');
const fileName = (number: string | null, id: string, ext: string) => `${(number ?? id).replace(/[^0-9A-Za-z_-]+/g, '-')}.${ext}`;
const attachment = (name: string) => ({ 'Content-Disposition': `attachment; filename="${name}"` });

/** GET /v1/invoices/{id}/xml (beyond the spec): the FA(3) XML exactly as built and sent; 409 until built. */
export const downloadXml: Endpoint<{ id: string }> = {
  input: ({ params }) => ({ id: parseParams(ZDocumentId, params.id, ['id']) }),
  handle: async ({ db, scope, input }) => {
    const doc = await getDocument(db, scope, input.id);
    if (!doc.fa3Xml) throw new AppError('xml_not_ready');
    return { status: 200, raw: doc.fa3Xml, contentType: 'application/xml; charset=utf-8', headers: attachment(fileName(doc.number, doc.id, 'xml')) };
  },
};

/** GET /v1/invoices/{id}/upo (beyond the spec): KSeF's UPO of the accepted document; 409 until available. */
export const downloadUpo: Endpoint<{ id: string }> = {
  input: ({ params }) => ({ id: parseParams(ZDocumentId, params.id, ['id']) }),
  handle: async ({ db, scope, input }) => {
    const doc = await getDocument(db, scope, input.id);
    if (!doc.upoXml) throw new AppError('upo_not_ready');
    return { status: 200, raw: doc.upoXml, contentType: 'application/xml; charset=utf-8', headers: attachment(fileName(doc.number, doc.id, 'upo.xml')) };
  },
};
