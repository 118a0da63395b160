// Every livestock endpoint requires the livestock module in the extension claimset (spec 1).
import { Forbidden } from '../../lib/errors';
import type { Claim } from '../../lib/auth/claims';
import { LIVESTOCK_CODES } from '../../lib/livestock/access';

export const livestockModule = {
  requires: ['LIVESTOCK'] as Claim[],
  missingClaim: () => new Forbidden('the livestock module is not active in the extension claimset', { code: LIVESTOCK_CODES.MODULE_DISABLED }),
};
