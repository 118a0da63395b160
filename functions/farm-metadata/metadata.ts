// GET/PATCH /api/farms/metadata (spec 3, Farm metadata)
import { Invalid } from '../../lib/errors';
import { farmMetadata } from '../../lib/farm-metadata/repository';
import { endpoint } from '../../lib/http/endpoint';
import { getMetadataRoute, patchMetadataRoute } from '../../schemas/farm-metadata';

export const get = endpoint(getMetadataRoute, {
  invalid: (_issues, message) => new Invalid('Error could not get metadata', { extra: { detail: message } }),
  handler: async ({ query, principal }) => {
    const metadata = await farmMetadata.metadataOf(principal, query.farms_id);
    return { data: Object.fromEntries([...metadata].map(([farmId, value]) => [String(farmId), { metadata: value }])) };
  },
});

export const patch = endpoint(patchMetadataRoute, {
  invalid: (_issues, message) => new Invalid('Error could not update metadata', { extra: { detail: message } }),
  handler: async ({ body, principal }) => ({
    data: { metadata: await farmMetadata.patchMetadata(principal, body.farm_id, body.metadata) },
  }),
});
