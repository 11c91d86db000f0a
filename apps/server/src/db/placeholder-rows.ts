import { sql, type Placeholder, type SQL } from 'drizzle-orm';

const placeholderName = (prefix: string, row: number, column: string) => `${prefix}${row}${column}`;

/**
 * The rows of an insert as named placeholders, for a statement built once per number of rows
 * (`preparedStatement`): row i's `column` is `${prefix}${i}${column}`, filled by
 * `placeholderRowValues`. `asSql` wraps each in SQL so drizzle skips the column's encoder (its
 * timestamp encoder fails on null; pg sends a Date with its offset itself).
 */
export function placeholderRows<Column extends string>(
  prefix: string,
  columns: readonly Column[],
  count: number,
  options: { asSql?: boolean } = {},
): Record<Column, Placeholder | SQL>[] {
  return Array.from(
    { length: count },
    (_, i) =>
      Object.fromEntries(
        columns.map((column) => {
          const placeholder = sql.placeholder(placeholderName(prefix, i, column));
          return [column, options.asSql ? sql`${placeholder}` : placeholder];
        }),
      ) as Record<Column, Placeholder | SQL>,
  );
}

/** The values of `placeholderRows`' placeholders for these rows (a missing value is null). */
export function placeholderRowValues<Column extends string>(
  prefix: string,
  columns: readonly Column[],
  rows: readonly Partial<Record<Column, unknown>>[],
): Record<string, unknown> {
  return Object.fromEntries(
    rows.flatMap((row, i) =>
      columns.map((column) => [placeholderName(prefix, i, column), row[column] ?? null]),
    ),
  );
}
