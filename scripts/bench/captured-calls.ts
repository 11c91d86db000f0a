/**
 * The statements one product call sent, as sql-recorder.ts wrote them, grouped per call for the
 * bare server to replay.
 */

export interface CapturedStatement {
  name?: string | undefined;
  /** 'array' where the product (drizzle) reads rows as arrays. */
  rowMode?: 'array' | undefined;
  text: string;
  values: unknown[];
  /** Positions of `values` holding the case id of a `case/{id}` call (replaced on replay). */
  caseIdAt?: number[];
  /**
   * Position of a value holding ids the call's previous statement answered (a searched staff
   * list reads the page's ids first, then those rows): replaced on replay by the ids the previous
   * statement answers then, so both servers read the same page even if a case moved since the
   * capture.
   */
  previousIdsAt?: number;
}

export interface CapturedCall {
  statements: CapturedStatement[];
}

/** Call key → its statements; the key is the caller and the URL (`:id` for a case id). */
export type CapturedCalls = Record<string, CapturedCall>;

export const callKey = (user: string | undefined, route: string) => `${user ?? 'anon'} ${route}`;

/**
 * A move's capture route: one per action (each action sends its own SQL). A write's route starts
 * with its method; a read's is its URL.
 */
export const moveRoute = (action: string) => `POST /api/v1/case/:id/move ${action}`;
const isWrite = (key: string) => key.includes(' POST ');

/**
 * The recorder's lines (one JSON object per statement, labelled with the call key) grouped by
 * call. `caseIds` maps a call key to the case id its capture was made with: values equal to it
 * become replaceable, so the bare server can read (or move) any case with the same statements.
 * A write's other values are replayed as captured: its arrays of ids are not a page just read.
 */
export function groupCaptured(lines: string, caseIds: Record<string, number>): CapturedCalls {
  const calls: CapturedCalls = {};
  for (const line of lines.split('\n')) {
    if (!line.trim()) continue;
    const { label, ...statement } = JSON.parse(line) as CapturedStatement & { label: string };
    const caseId = caseIds[label];
    if (caseId !== undefined) {
      statement.caseIdAt = statement.values.flatMap((value, index) =>
        value === caseId || value === String(caseId) ? [index] : [],
      );
    }
    const call = (calls[label] ??= { statements: [] });
    if (call.statements.length > 0 && !isWrite(label)) {
      const idsAt = statement.values.findIndex(
        (value) => Array.isArray(value) && value.every((id) => typeof id === 'number'),
      );
      if (idsAt >= 0) statement.previousIdsAt = idsAt;
    }
    call.statements.push(statement);
  }
  return calls;
}
