/**
 * Fixed-width text tables for the bench's printed summaries (summary.js, grid.js): `pad` and
 * `formatColumns`, which prints a header row and one row per item from a list of columns.
 *
 * Pitfall: a cell longer than its width is not cut, it pushes the rest of its row right; the last
 * column (width 0) is never padded, and null / undefined print as '–'.
 */

/** `s` (null / undefined as '–') padded with spaces to `n` characters. */
export function pad(s, n) {
  s = String(s ?? '–');
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/**
 * Lines of a table: the header row, then a row per item. `columns`: [head, width, cell(item)];
 * width 0 leaves the cell as it is (the last column).
 */
export function formatColumns(columns, items) {
  const row = (cells) => cells.map((c, i) => (columns[i][1] ? pad(c, columns[i][1]) : c)).join(' ');
  return [row(columns.map(([head]) => head)), ...items.map((item) => row(columns.map(([, , cell]) => cell(item))))];
}
