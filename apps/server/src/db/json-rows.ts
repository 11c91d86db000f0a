import { getTableColumns, type Table } from 'drizzle-orm';

/**
 * A table's row as `to_json(row)` gives it inside another statement's JSON (snake_case keys,
 * timestamps as text), mapped as drizzle maps a selected row: each column's property name and
 * driver value mapping (dates, json). Lets one statement carry another table's rows.
 */
export function tableRowFromJson<T extends Table>(
  table: T,
  json: Record<string, unknown>,
): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [property, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[property] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}
