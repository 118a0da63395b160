// POST /internal/samplings and PATCH /internal/samplings/{sampling_uuid}: the platform's side of samplings.
import { endpoint } from '../../lib/http/endpoint';
import { samplings } from '../../lib/samplings/repository';
import { closeSamplingRoute, createSamplingRoute } from '../../schemas/samplings';

export const post = endpoint(createSamplingRoute, {
  handler: async ({ body }) => {
    const sampling = await samplings.createSampling({
      uuid: body.sampling_uuid,
      name: body.sampling_name,
      fieldId: body.field_id,
      yeargroup: body.yeargroup,
      sampleSetUuid: body.sample_set_uuid,
      groupAssignedId: body.group_assigned_id,
      zoning: body.zoning,
      analysis: body.analysis,
      groups: body.groups,
      points: body.points,
    });
    return {
      code: 0 as const,
      data: {
        sampling_uuid: sampling.uuid,
        sample_set_uuid: sampling.sampleSetUuid,
        groups: sampling.groups,
        points: sampling.points,
      },
    };
  },
});

export const patch = endpoint(closeSamplingRoute, {
  handler: async ({ path, body }) => {
    const sampling = await samplings.closeSampling(path.sampling_uuid, body.closed_at);
    return { code: 0 as const, data: { sampling_uuid: sampling.uuid, closed_at: sampling.closedAt } };
  },
});
