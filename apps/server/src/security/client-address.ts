import { isIPv6 } from 'node:net';

/** An IPv6 client is counted by its /56: one subscriber gets a /64 or a /56 to rotate through. */
const IPV6_PREFIX_GROUPS = 3;

/** The eight 16-bit groups of a valid IPv6 address (an embedded IPv4 tail is folded in). */
function ipv6Groups(ip: string): number[] {
  let address = ip.split('%')[0]!;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head = '', tail] = address.split('::');
  if (tail === undefined) return parse(head);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The key a client address is counted under by the rate limits: an IPv4 address as it is (an
 * IPv4-mapped IPv6 one as IPv4), an IPv6 address by its /56 network.
 */
export function addressKey(ip: string | undefined): string {
  if (!ip) return 'local';
  if (!isIPv6(ip)) return ip.toLowerCase();
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  const prefix = groups.slice(0, IPV6_PREFIX_GROUPS).map((group) => group.toString(16));
  return `${prefix.join(':')}:${(groups[IPV6_PREFIX_GROUPS]! & 0xff00).toString(16)}::/56`;
}
