// /api/sampling, /api/sampling/analysis, /api/sampling/variablelist (spec 3, Samplings).
import { endpoint } from '../../lib/http/endpoint';
import { VARIABLE_LISTS } from '../../lib/samplings/model';
import { samplings } from '../../lib/samplings/repository';
import { listSamplingsRoute, samplingAnalysisRoute, variableListRoute } from '../../schemas/samplings';

export const get = endpoint(listSamplingsRoute, {
  handler: async ({ query, principal }) => ({
    code: 0 as const,
    data: await samplings.readSamplings(principal, { fieldId: query.field_id, samplingUuid: query.sampling_uuid }),
  }),
});

export const analysis = endpoint(samplingAnalysisRoute, {
  handler: async ({ query, principal }) => ({
    code: 0 as const,
    data: await samplings.samplingAnalyses(principal, {
      fieldId: query.field_id,
      farmId: query.farm_id,
      samplingUuid: query.sampling_uuid,
    }),
  }),
});

export const variablelist = endpoint(variableListRoute, {
  handler: async () => ({
    code: 0 as const,
    variablelist: VARIABLE_LISTS.map((list) => ({ ...list, items: [...list.items] })),
  }),
});
