import type { ReactNode } from 'react';

/** One column of a DataTable: its header and what a row shows in it. */
export interface Column<Row> {
  header: string;
  /** The header for screen readers only (a column of buttons). */
  hiddenHeader?: boolean;
  className?: string;
  cell: (row: Row) => ReactNode;
}

/** A table of rows, one header per column, with a caption for screen readers. */
export function DataTable<Row>({ caption, columns, rows, rowKey }: { caption: string; columns: Column<Row>[]; rows: readonly Row[]; rowKey: (row: Row) => string }) {
  return (
    <table>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.hiddenHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => (
              <td key={column.header} className={column.className}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
