// Where a webhook may be sent (docs/integrations.md, "Safety"): https to a public address. A URL's host
// is resolved once, every address it resolves to is checked with ipaddr.js (only globally routable
// unicast: IPv4 outside every special range, IPv6 in 2000::/3 outside them, an IPv4-mapped IPv6
// address judged as its IPv4), and the delivery connects to the checked address itself, keeping the
// host name for TLS (SNI, the certificate) and the Host header: a name cannot resolve elsewhere
// between the check and the connection (DNS rebinding). Redirects are never followed. Checked at
// subscription and again at each delivery. Plain http and private addresses are allowed only when
// configured (the local stack, so that tests and extensions under development receive on loopback).
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Resolver = (host: string) => Promise<string[]>;

export const dnsResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** IPv6's global unicast space (RFC 4291): everything else is local, special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether an address is a globally routable unicast address. Only addresses in their strict forms
 * are read (dotted decimal, IPv6 as getaddrinfo and the URL parser write them: `net.isIP`), so no
 * octal, hex or short IPv4 spelling reaches the parser; anything else is not public.
 */
export function isPublicAddress(text: string): boolean {
  if (!isIP(text)) return false;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(text);
  } catch {
    return false;
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    address = (address as ipaddr.IPv6).toIPv4Address();
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  // ::/96 (IPv4-compatible, `[::127.0.0.1]`), 64:ff9b::/96, 6to4, Teredo, documentation, ... are
  // outside 2000::/3 or in one of ipaddr.js's special ranges
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/** Whether an IP address is not a public unicast address (private, loopback, link-local, reserved, mapped or embedded forms of those). */
export const isPrivateAddress = (address: string): boolean => !isPublicAddress(address);

/** A URL whose host was resolved once and checked: deliveries connect to `address`, named `host`. */
export interface CheckedTarget {
  url: URL;
  /** The URL's host name (or IP literal, without brackets): SNI, certificate and Host header. */
  host: string;
  /** The address the check accepted: the one connected to. */
  address: string;
  family: 4 | 6;
}

export interface TargetOptions {
  allowPrivate: boolean;
  resolve?: Resolver;
}

/** The URL, or why it may not receive webhooks whatever it resolves to. */
function parseTarget(text: string, allowPrivate: boolean): URL | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.username || url.password) return 'a URL with credentials';
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'not an https URL';
  return url;
}

/**
 * Resolves the URL's host once and checks every address (all must be public unless private ones
 * are allowed): the target to connect to, or why the URL is refused.
 */
export async function checkTarget(
  text: string,
  { allowPrivate, resolve = dnsResolver }: TargetOptions,
): Promise<{ target: CheckedTarget } | { problem: string }> {
  const url = parseTarget(text, allowPrivate);
  if (typeof url === 'string') return { problem: url };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { problem: `the host ${host} does not resolve` };
  }
  const usable = addresses.filter((address) => isIP(address));
  if (!usable.length) return { problem: `the host ${host} does not resolve` };
  if (!allowPrivate) {
    const bad = usable.find(isPrivateAddress);
    if (bad) return { problem: `the host ${host} is a private, loopback, link-local or reserved address (${bad})` };
  }
  const address = usable[0]!;
  return { target: { url, host, address, family: isIP(address) as 4 | 6 } };
}

/** Why a URL may not receive webhooks, or undefined when it may (at subscription; private hosts locally are not resolved). */
export async function urlProblem(text: string, options: TargetOptions): Promise<string | undefined> {
  if (options.allowPrivate) {
    const url = parseTarget(text, true);
    return typeof url === 'string' ? url : undefined;
  }
  const checked = await checkTarget(text, options);
  return 'problem' in checked ? checked.problem : undefined;
}

export interface TargetRequest {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** Sends a delivery to a checked target; resolves with the answer's status (redirects are not followed). */
export type Poster = (target: CheckedTarget, request: TargetRequest) => Promise<{ status: number }>;

/**
 * The options of a POST to a checked target: the host name for the Host header, SNI and the
 * certificate check, and a lookup that answers only the checked address (so the connection goes
 * where the check looked, whatever the name resolves to now). No pooled agent: each delivery makes
 * its own connection.
 */
export function targetRequestOptions(target: CheckedTarget, request: TargetRequest): RequestOptions {
  const { url, host, address, family } = target;
  const secure = url.protocol === 'https:';
  const pinned = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  return {
    protocol: url.protocol,
    hostname: host,
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    path: `${url.pathname}${url.search}`,
    method: 'POST',
    headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
    lookup: pinned,
    family,
    agent: false,
    // SNI carries a host name, never an address
    ...(secure && !isIP(host) ? { servername: host } : {}),
  };
}

/** The delivery's POST, connected to the checked address; no answer within the timeout is a TimeoutError. */
export const postToTarget: Poster = (target, request) =>
  new Promise((resolve, reject) => {
    const options = targetRequestOptions(target, request);
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const done = (error: Error | undefined, status?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve({ status: status! });
    };
    const outgoing = send(options, (response: IncomingMessage) => {
      done(undefined, response.statusCode ?? 0);
      response.destroy(); // the body is not read: the status is the answer
    });
    const timer = setTimeout(() => {
      const timeout = new Error(`no answer within ${request.timeoutMs} ms`);
      timeout.name = 'TimeoutError';
      outgoing.destroy(timeout);
      done(timeout);
    }, request.timeoutMs);
    outgoing.on('error', (error) => done(error));
    outgoing.end(request.body);
  });
