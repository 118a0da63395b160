// Where a webhook may be sent (docs/webhooks.md, "Safety"): https to a public address. Private,
// loopback, link-local, multicast and reserved addresses are refused (SSRF), at subscription and
// again at each delivery (the name may resolve elsewhere later); plain http and such addresses are
// allowed only when configured (the local stack, so that tests and extensions under development
// receive on loopback).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export type Resolver = (host: string) => Promise<string[]>;

export const dnsResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

function v4Private(address: string): boolean {
  const [a, b] = address.split('.').map(Number) as [number, number, number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** Whether an IP address is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) return v4Private(address);
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return v4Private(mapped[1]!);
  return (
    lower === '::' ||
    lower === '::1' ||
    /^f[cd]/.test(lower) ||
    /^fe[89ab]/.test(lower) ||
    /^ff/.test(lower) ||
    lower.startsWith('64:ff9b:') ||
    lower.startsWith('2001:db8')
  );
}

/** Why a URL may not receive webhooks, or undefined when it may. */
export async function urlProblem(
  text: string,
  { allowPrivate, resolve = dnsResolver }: { allowPrivate: boolean; resolve?: Resolver },
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password) return 'a URL with credentials';
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'not an https URL';
  if (allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return `the host ${host} does not resolve`;
  }
  if (!addresses.length) return `the host ${host} does not resolve`;
  const bad = addresses.find(isPrivateAddress);
  return bad ? `the host ${host} is a private, loopback or link-local address (${bad})` : undefined;
}
