// RFC 4180 CSV for spreadsheets: CRLF line ends, fields quoted when they hold a comma, quote or
// line break (quotes doubled), and text that a spreadsheet would run as a formula made inert.

export type CsvValue = string | number | boolean | null | undefined;

/**
 * Cells a spreadsheet reads as a formula (OWASP "CSV injection"): leading =, +, -, @, tab or
 * carriage return. A leading apostrophe keeps them text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  // Numbers are data the sheet should compute with; only text can smuggle a formula.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
