import { describe, expect, it } from 'vitest';
import { addressKey } from './client-address';

describe('addressKey: what a client address is counted under', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::ffff:cb00:7109', '203.0.113.9'],
    ['::1', '0:0:0:0::/56'],
    ['2001:db8:aa:bb01::1', '2001:db8:aa:bb00::/56'],
    ['2001:db8:aa:bbff:1:2:3:4', '2001:db8:aa:bb00::/56'],
    ['2001:DB8:AA:BB01:ffff::9', '2001:db8:aa:bb00::/56'],
    ['2001:db8:aa:cc01::1', '2001:db8:aa:cc00::/56'],
    ['2001:db8::1', '2001:db8:0:0::/56'],
    ['fe80::1%eth0', 'fe80:0:0:0::/56'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/56'],
    [undefined, 'local'],
    ['', 'local'],
  ])('%s → %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});
