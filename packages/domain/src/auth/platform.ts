/**
 * The platform a user signs in from, recorded in their `dataInfo.platform` at each sign-in, e.g.
 * "web · Chrome · Linux": the client, the browser and the operating system, read from the
 * User-Agent and, where the browser sends them, the client hints (`Sec-CH-UA-Platform`).
 */
export interface PlatformSource {
  userAgent?: string | undefined;
  /** `Sec-CH-UA-Platform`, e.g. `"Windows"` (quotes included, as sent). */
  platformHint?: string | undefined;
  /** `Sec-CH-UA-Mobile`: `?1` on a phone. */
  mobileHint?: string | undefined;
}

// Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari".
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium|HeadlessChrome)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const HINTED_SYSTEMS: Record<string, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  android: 'Android',
  ios: 'iOS',
  'chrome os': 'ChromeOS',
  chromeos: 'ChromeOS',
};

const firstMatch = (text: string, table: ReadonlyArray<[RegExp, string]>) =>
  table.find(([pattern]) => pattern.test(text))?.[1];

export function platformOf(source: PlatformSource): string {
  const agent = (source.userAgent ?? '').slice(0, 512);
  const hinted = source.platformHint?.replace(/"/g, '').trim().toLowerCase();
  const system = (hinted && HINTED_SYSTEMS[hinted]) ?? firstMatch(agent, SYSTEMS);
  const browser = firstMatch(agent, BROWSERS);
  const client = source.mobileHint === '?1' || /\bMobile\b/.test(agent) ? 'mobile web' : 'web';
  return [client, browser ?? 'other browser', system ?? 'other system'].join(' · ');
}
