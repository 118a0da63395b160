// The signature of a delivery (docs/integrations.md): HMAC-SHA256 of `<timestamp>.<body>` with the
// subscription's secret, hex, in `Surco-Signature: t=<timestamp>,v1=<hex>`. A receiver recomputes
// it, compares in constant time and refuses old timestamps (replays).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'surco-signature';
export const DELIVERY_HEADER = 'surco-delivery';
export const EVENT_HEADER = 'surco-event';

export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

export const signatureOf = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export const signatureHeader = (secret: string, timestamp: number, body: string): string =>
  `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;

/** What a receiver does: the header's signature is the body's, and not older than `toleranceS`. */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  { now = Date.now(), toleranceS = 300 } = {},
): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1 || Math.abs(now / 1000 - timestamp) > toleranceS) return false;
  const expected = Buffer.from(signatureOf(secret, timestamp, body), 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
