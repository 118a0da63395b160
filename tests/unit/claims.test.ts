// lib/auth/claims.ts: what an extension may do is plan features ∩ extension claimset.
import { describe, expect, it } from 'vitest';
import { CLAIMS, effectiveClaims } from '../../lib/auth/claims';

describe('effective claims', () => {
  it("expands '*' on either side", () => {
    expect(effectiveClaims(['*'], ['*']).size).toBe(CLAIMS.length);
    expect([...effectiveClaims(['*'], ['STORAGE'])]).toEqual(['STORAGE']);
    expect([...effectiveClaims(['LIVESTOCK'], ['*'])]).toEqual(['LIVESTOCK']);
  });

  it('keeps only what both grant, and ignores unknown names', () => {
    expect([...effectiveClaims(['STORAGE', 'CAMPAIGN', 'NOPE'], ['CAMPAIGN', 'LIVESTOCK', 'NOPE'])]).toEqual([
      'CAMPAIGN',
    ]);
  });
});
