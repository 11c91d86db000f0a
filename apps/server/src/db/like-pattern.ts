/**
 * The text with LIKE's wildcards (`%`, `_`) and its escape character (`\`, PostgreSQL's default)
 * escaped, so a searched word matches itself only: `%${escapeLike(word)}%` is "contains word".
 */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
