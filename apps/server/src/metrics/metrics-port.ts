/**
 * What services count for operations, without knowing the metrics library: the app passes one
 * in the context (`ctx.metrics`).
 */
export interface MetricsPort {
  /**
   * A provider's payment notice was claimed and settled: 'applied' moved a transaction;
   * 'refused' changed nothing or opened a review (`outcome`: duplicate, stale, mismatch, …).
   */
  paymentNotice(result: 'applied' | 'refused', outcome: string): void;
}

/** Counts nothing (tools and tests that build a context of their own). */
export const noMetrics: MetricsPort = { paymentNotice: () => undefined };
