// Samplings' error codes (spec 3, Samplings), in one place as every area keeps its codes (lib/<area>/codes.ts).

export const SAMPLING_CODES = { INSUFFICIENT_PERMISSIONS: -11, WRONG_FORMAT: -4 } as const;
