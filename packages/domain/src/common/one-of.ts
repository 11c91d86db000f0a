/**
 * Whether `value` is one of the entries of a constant list (`as const`), narrowing its type:
 * the one membership test for the spec's named values (statuses, roles, languages, kinds...).
 */
export function isOneOf<const T extends string | number>(
  list: readonly T[],
  value: unknown,
): value is T {
  return (list as readonly unknown[]).includes(value);
}
