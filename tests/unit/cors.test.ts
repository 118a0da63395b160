// lib/http/cors.ts: the one CORS policy, as API Gateway's generated preflight applies it.
import { describe, expect, it } from 'vitest';
import { allowOrigin, parseOrigins, preflightHeaders, responseCorsHeaders } from '../../lib/http/cors';

describe('allowed origins', () => {
  it('answers * when every origin is allowed', () => {
    expect(allowOrigin(parseOrigins(undefined), 'https://a.example')).toBe('*');
    expect(allowOrigin(parseOrigins('*'), undefined)).toBe('*');
  });

  it('echoes a listed or wildcard-matching origin, and the first origin otherwise (the browser then refuses)', () => {
    const origins = parseOrigins('https://app.example.com, https://*.example.org');
    expect(allowOrigin(origins, 'https://app.example.com')).toBe('https://app.example.com');
    expect(allowOrigin(origins, 'https://x.example.org')).toBe('https://x.example.org');
    expect(allowOrigin(origins, 'https://appXexample.com')).toBe('https://app.example.com'); // dots are literal
    expect(allowOrigin(origins, 'https://evil.example')).toBe('https://app.example.com');
    expect(responseCorsHeaders('https://x.example.org', origins)).toMatchObject({ vary: 'Origin' });
  });

  it("lists the path's methods after OPTIONS in a preflight, as the deployed MOCK integration does", () => {
    expect(preflightHeaders('https://a', ['get', 'post'], ['*'])).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'OPTIONS,GET,POST',
      'access-control-max-age': '600',
    });
  });
});
