// /spots/spot and /api/spots/spot: POST, GET, PATCH, DELETE (spec 1, Spots)
import { endpoint } from '../../lib/http/endpoint';
import { spots } from '../../lib/spots/repository';
import {
  createSpotRoute,
  deleteSpotRoute,
  legacySpotRecord,
  listSpotsRoute,
  patchSpotRoute,
} from '../../schemas/spots';
import { spotsPage } from './filters';

export const post = endpoint(createSpotRoute, {
  handler: async ({ body, principal }) => {
    const spot = await spots.createSpot(principal, {
      uuid: body.uuid,
      fieldId: body.field_id,
      name: body.name,
      shape: body.shape,
      tags: body.tags,
      groupUuid: body.group_uuid,
      texts: body.texts,
      sampleSet: body.sample_set,
      variables: body.data?.variables ?? null,
    });
    return { code: spot.code, spot_uuid: spot.uuid };
  },
});

export const list = endpoint(listSpotsRoute, {
  handler: async ({ query, principal }) => spotsPage(principal, query),
});

export const patch = endpoint(patchSpotRoute, {
  handler: async ({ body, principal }) => {
    const spot = await spots.patchSpot(principal, body.uuid, {
      fieldId: body.field_id,
      name: body.name,
      shape: body.shape,
      tags: body.tags,
      groupUuid: body.group_uuid,
      texts: body.texts,
      sampleSet: body.sample_set,
      ...(body.data !== undefined ? { variables: body.data?.variables ?? null } : {}),
    });
    return { 'spot_uuid:': spot.uuid };
  },
});

export const del = endpoint(deleteSpotRoute, {
  handler: async ({ query, principal }) => {
    const { spot, deletedAt } = await spots.deleteSpot(principal, query.uuid);
    return { spot_uuid: legacySpotRecord(spot, deletedAt) };
  },
});
