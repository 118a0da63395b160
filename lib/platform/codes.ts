// Internal API codes (docs/internal-api.md), in one place as every area keeps its codes (lib/<area>/codes.ts).

/** Internal API codes (docs/internal-api.md). */
export const INTERNAL_CODES = { NOT_FOUND: 1, INVALID_RELATION: 2 } as const;
