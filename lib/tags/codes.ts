// Farm and field tags' error codes, in one place as every area keeps its codes (lib/<area>/codes.ts).

/** Farm tag codes (spec 2, Errors, farm tags). */
export const TAG_CODES = { MISSING: 1, INVALID_COLOR: 2, EXISTS_OR_UNKNOWN: 3, NAME_TAKEN_ON_UPDATE: -6 } as const;
