import PDFDocument from 'pdfkit';

/**
 * pdfkit opens Helvetica for every new document (it reads the AFM file and builds its kerning table: 0.7 ms a
 * PDF, 4 % of the PDF worker's CPU in bench/cost-per-document.ts), and react-pdf gives it no other default. No
 * text of ours is set in it: react-pdf selects our embedded DejaVu before every run, and an unused font is not
 * written to the file. So documents start without a font. Imported once, with react-pdf (render.ts).
 */
const initFonts = PDFDocument.prototype.initFonts;
PDFDocument.prototype.initFonts = function (this: PDFDocument, _defaultFont?: string | null, ...rest: unknown[]) {
  initFonts.call(this, null, ...rest);
};
