import type { ComponentChildren } from 'preact';
import { TableFit } from './TableFit';

interface DataTableProps {
  /** Read by screen readers only: what the table lists. */
  caption: string;
  /** Column headings; the last may be an action column whose heading is read but not shown. */
  columns: string[];
  actionColumn?: string;
  class?: string;
  /** The `<tr>` rows. */
  children: ComponentChildren;
}

/** A list as a table, stacked rows in a narrow panel (TableFit), with a hidden caption and column headings. */
export function DataTable({ caption, columns, actionColumn, class: className, children }: DataTableProps) {
  return (
    <TableFit>
      <table class={className}>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actionColumn ? (
              <th scope="col">
                <span class="visually-hidden">{actionColumn}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableFit>
  );
}
