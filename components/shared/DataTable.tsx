import type { ComponentChildren } from 'preact';

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

/** A list as a table that scrolls sideways in a narrow panel, with a hidden caption and column headings. */
export function DataTable({ caption, columns, actionColumn, class: className, children }: DataTableProps) {
  return (
    <div class="table-scroll">
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
    </div>
  );
}
