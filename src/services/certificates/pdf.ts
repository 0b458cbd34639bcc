import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/**
 * The certificate as a PDF (pdf-lib: pure JavaScript, no native parts). One landscape A4 page in
 * Noto Sans (regular and bold, from the `@expo-google-fonts/noto-sans` package, SIL Open Font
 * License), embedded as subsets of the characters the page uses, so a certificate stays a few
 * kilobytes. A certificate is a document of record: the standard PDF fonts cover only Latin-1, so
 * names such as "Erdős" or "Шостакович" need a font of their own. Noto Sans covers Latin with its
 * extensions (Vietnamese too), Greek and Cyrillic; a character outside it (CJK, Arabic) is printed
 * as its base letter where it has one and as `?` otherwise, never as an empty box.
 */

// Resolves the font files inside the installed package (also from the compiled bundle in dist/).
const fromPackages = createRequire(import.meta.url);
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
} as const;

/**
 * The font files, read once per process on the first certificate. pdf-lib parses them again for
 * every document: a parsed fontkit font shared between documents mixes up their glyph maps (the
 * text a reader extracts comes out wrong), so nothing parsed is kept.
 */
let fonts: Promise<{ regular: Buffer; bold: Buffer }> | undefined;
const loadFonts = () =>
  (fonts ??= Promise.all([readFile(fromPackages.resolve(FONT_FILES.regular)), readFile(fromPackages.resolve(FONT_FILES.bold))]).then(([regular, bold]) => ({ regular, bold })));

export interface CertificateContent {
  name: string;
  title: string;
  grade: string | null;
  /** `YYYY-MM-DD` of the issue. */
  issued: string;
  serial: string | null;
  /** `YYYY-MM-DD`; null: it does not expire. */
  expires: string | null;
}

const A4_LANDSCAPE: [number, number] = [841.89, 595.28];
const INK = rgb(0.13, 0.16, 0.22);
const ACCENT = rgb(0.16, 0.35, 0.6);
const MUTED = rgb(0.4, 0.43, 0.48);

/** The text with every character the font cannot show replaced (its base letter, else `?`). */
function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text.replace(/[\u0000-\u001f\u007f]+/g, ' ')) {
    if (known.has(ch.codePointAt(0)!)) out += ch;
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}+/gu, '');
      out += base && [...base].every((c) => known.has(c.codePointAt(0)!)) ? base : '?';
    }
  }
  return out;
}

/** One line centred on the page, shrunk to fit the width when it is long. */
function centred(page: PDFPage, font: PDFFont, text: string, y: number, size: number, color = INK): void {
  const line = printable(font, text);
  const room = page.getWidth() - 120;
  const fitted = Math.min(size, (size * room) / Math.max(1, font.widthOfTextAtSize(line, size)));
  page.drawText(line, { x: (page.getWidth() - font.widthOfTextAtSize(line, fitted)) / 2, y, size: fitted, font, color });
}

export async function renderCertificate(content: CertificateContent): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const files = await loadFonts();
  const [regular, bold] = await Promise.all([pdf.embedFont(files.regular, { subset: true }), pdf.embedFont(files.bold, { subset: true })]);
  // Metadata are Unicode text strings: no font involved.
  pdf.setTitle(`Certificate: ${content.title}`);
  pdf.setSubject(content.name);
  pdf.setCreator('learning-platform-service');
  pdf.setProducer('pdf-lib');
  const page = pdf.addPage(A4_LANDSCAPE);
  const { width, height } = page.getSize();
  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: ACCENT, borderWidth: 3 });
  page.drawRectangle({ x: 34, y: 34, width: width - 68, height: height - 68, borderColor: ACCENT, borderWidth: 0.75 });

  centred(page, bold, 'CERTIFICATE', height - 130, 40, ACCENT);
  centred(page, regular, 'This certifies that', height - 190, 16, MUTED);
  centred(page, bold, content.name, height - 240, 32);
  centred(page, regular, 'has successfully completed', height - 285, 16, MUTED);
  centred(page, bold, content.title, height - 330, 24);
  if (content.grade !== null) centred(page, regular, `Grade: ${content.grade}`, height - 375, 18);

  const facts = [`Date: ${content.issued}`, ...(content.serial !== null ? [`Serial: ${content.serial}`] : []), ...(content.expires !== null ? [`Valid until: ${content.expires}`] : [])];
  centred(page, regular, facts.join('      '), 80, 12, MUTED);
  return pdf.save();
}
