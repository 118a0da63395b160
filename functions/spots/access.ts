// The Management zones functionality gates every change to spots (spec 1: creating needs it).
import { Forbidden } from '../../lib/errors';
import type { Claim } from '../../lib/auth/claims';
import { SPOT_CODES } from '../../lib/spots/model';

export const managementZones = {
  requires: ['MANAGEMENT_ZONES'] as Claim[],
  missingClaim: () => new Forbidden('the extension lacks the Management zones functionality', { code: SPOT_CODES.NO_PERMISSION }),
};
