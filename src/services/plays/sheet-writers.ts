import { once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * Table writers for results exports: a header row, then rows as they are read, written to a
 * stream as they come. Neither keeps the rows: the CSV writer writes each row at once, the XLSX
 * writer is ExcelJS's streaming WorkbookWriter, which zips each committed row into the stream.
 */

export type Cell = string | number | null;

export interface SheetWriter {
  /** Writes rows; resolves once the stream has room again (the reader keeps up), so memory stays bounded. */
  rows(rows: readonly Cell[][]): Promise<void>;
  /** Finishes the file and ends the stream. */
  end(): Promise<void>;
}

export const contentTypes = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** Waits until the stream has drained its buffer, or is gone (a reader that went away). */
async function room(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return;
  await Promise.race([once(out, 'drain'), once(out, 'close')]);
}

/**
 * A text a spreadsheet program would take for a formula (=, +, -, @, tab, carriage return) is
 * written with a leading apostrophe, so an examinee's answer or name never runs as one.
 */
const defuse = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

function csvField(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return String(cell);
  const text = defuse(cell);
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Semicolon separated values, UTF-8 with a byte order mark (so spreadsheet programs read it as UTF-8), CRLF lines. */
export function csvWriter(out: Writable, header: readonly string[]): SheetWriter {
  out.write('\uFEFF' + header.map(csvField).join(';') + '\r\n');
  return {
    async rows(rows) {
      if (out.destroyed) return;
      out.write(rows.map((r) => r.map(csvField).join(';') + '\r\n').join(''));
      await room(out);
    },
    async end() {
      if (out.destroyed) return;
      out.end();
      await Promise.race([once(out, 'finish'), once(out, 'close')]);
    },
  };
}

/** One worksheet streamed with ExcelJS's WorkbookWriter (no shared strings, no styles: nothing kept per row). */
export function xlsxWriter(out: Writable, header: readonly string[], sheetName: string): SheetWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31));
  sheet.addRow([...header]).commit();
  return {
    async rows(rows) {
      if (out.destroyed) return;
      for (const row of rows) sheet.addRow(row).commit();
      await room(out);
    },
    async end() {
      if (out.destroyed) return;
      sheet.commit();
      await workbook.commit();
    },
  };
}
