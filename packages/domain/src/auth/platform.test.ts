import { describe, expect, it } from 'vitest';
import { platformOf } from './platform';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const EDGE_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('platformOf', () => {
  it.each([
    [{ userAgent: CHROME_LINUX }, 'web · Chrome · Linux'],
    [{ userAgent: EDGE_WINDOWS }, 'web · Edge · Windows'],
    [{ userAgent: SAFARI_IPHONE }, 'mobile web · Safari · iOS'],
    [{ userAgent: FIREFOX_MAC }, 'web · Firefox · macOS'],
    [{ userAgent: CHROME_ANDROID }, 'mobile web · Chrome · Android'],
    [{ userAgent: CHROME_LINUX, platformHint: '"Windows"' }, 'web · Chrome · Windows'],
    [{ userAgent: CHROME_LINUX, mobileHint: '?1' }, 'mobile web · Chrome · Linux'],
    [{ userAgent: 'curl/8.5.0' }, 'web · other browser · other system'],
    [{}, 'web · other browser · other system'],
  ])('%j → %s', (source, expected) => expect(platformOf(source)).toBe(expected));

  it('stays within the 120 characters of dataInfo.platform', () => {
    expect(platformOf({ userAgent: 'x'.repeat(10_000) }).length).toBeLessThanOrEqual(120);
  });
});
