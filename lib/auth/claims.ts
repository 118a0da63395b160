// Claim names carried in a token's claimset (docs/internal-api.md). An extension may do what the
// user's plan features and the extension version's claimset both grant.

export const CLAIMS = [
  'VARIABLE_GROUPS_CREATE',
  'VARIABLE_GROUPS_READ',
  'VARIABLE_GROUPS_UPDATE',
  'VARIABLE_GROUPS_DELETE',
  'VARIABLES_CREATE',
  'VARIABLES_READ',
  'VARIABLES_UPDATE',
  'VARIABLES_DELETE',
  'FIELDS_CREATE', // Create Fields feature
  'SEASON_VIEW', // View season feature
  'MANAGEMENT_ZONES', // Management zones functionality
  'CAMPAIGN', // Campaign permissions
  'STORAGE', // Storage permissions
  'LIVESTOCK', // livestock module
  'SHAPES_EDIT', // create-field (C) and modify-campaign (U) options for season shapes
] as const;

export type Claim = (typeof CLAIMS)[number];
export const ALL_CLAIMS = '*';

const known = new Set<string>(CLAIMS);
export const isClaim = (value: string): value is Claim => known.has(value);

/** Expands '*' and drops unknown names. */
export function expandClaims(list: readonly string[]): Set<Claim> {
  if (list.includes(ALL_CLAIMS)) return new Set(CLAIMS);
  return new Set(list.filter(isClaim));
}

/** What an extension may do: the user's plan features intersected with the token's claimset. */
export function effectiveClaims(tokenClaims: readonly string[], userFeatures: readonly string[]): Set<Claim> {
  const granted = expandClaims(tokenClaims);
  const plan = expandClaims(userFeatures);
  return new Set([...granted].filter((claim) => plan.has(claim)));
}
