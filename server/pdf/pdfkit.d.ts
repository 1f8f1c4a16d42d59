/** pdfkit ships no types; this is the part server/pdf/skip-default-font.ts (and its test) touches. */
declare module 'pdfkit' {
  export default class PDFDocument {
    constructor(options?: { autoFirstPage?: boolean });
    initFonts(defaultFont?: string | null, ...rest: unknown[]): void;
    /** The current font and every font the document opened (pdfkit's own fields). */
    _font: unknown;
    _fontFamilies: Record<string, unknown>;
  }
}
