import { isLanguage, languageTag } from '@dentflow/domain';

/**
 * Speed and time left of an upload from its progress samples: the bytes sent over the last few
 * seconds (a window, so a pause or a resumed start does not skew it for long).
 */
export function createTransferRate(windowMs = 5000) {
  let samples: { at: number; sent: number }[] = [];
  return {
    /** Records `sent` bytes at `at` ms; answers bytes per second (null until measurable). */
    sample(at: number, sent: number): number | null {
      samples.push({ at, sent });
      samples = samples.filter((sample) => at - sample.at <= windowMs);
      const first = samples[0]!;
      const elapsed = at - first.at;
      if (elapsed < 500) return null;
      return Math.max(0, ((sent - first.sent) * 1000) / elapsed);
    },
    /** Forgets the samples (after a pause: a retry, a resume). */
    reset() {
      samples = [];
    },
  };
}

/** Seconds until `total` at `bytesPerSecond`; null when nothing moves. */
export function secondsLeft(sent: number, total: number, bytesPerSecond: number | null) {
  if (!bytesPerSecond || bytesPerSecond <= 0) return null;
  return Math.ceil(Math.max(0, total - sent) / bytesPerSecond);
}

/** "45 s", "3 min", "1 h 5 min" in the interface language (`ptBR`) or a BCP 47 tag. */
export function formatDuration(seconds: number, language: string): string {
  const locale = isLanguage(language) ? languageTag(language) : language;
  const unit = (value: number, name: 'second' | 'minute' | 'hour') =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' }).format(
      value,
    );
  if (seconds < 60) return unit(Math.max(1, Math.round(seconds)), 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return unit(minutes, 'minute');
  const rest = minutes % 60;
  return rest
    ? `${unit(Math.floor(minutes / 60), 'hour')} ${unit(rest, 'minute')}`
    : unit(minutes / 60, 'hour');
}
