// /api/tags_campos/asociar: POST, DELETE (spec 2, Farm tags)
import { Invalid } from '../../lib/errors';
import { endpoint } from '../../lib/http/endpoint';
import { TAG_CODES } from '../../lib/tags/codes';
import { tags } from '../../lib/tags/instance';
import { linkFarmTagRoute, tagMap, unlinkFarmTagRoute } from '../../schemas/tags';

const missingParameters = () =>
  new Invalid('Faltan parámetros: id_tag e id_campo son obligatorios', { code: TAG_CODES.MISSING });

const required = (query: { id_tag?: number; id_campo?: number }) => {
  if (query.id_tag === undefined || query.id_campo === undefined) throw missingParameters();
  return { tagId: query.id_tag, farmId: query.id_campo };
};

export const post = endpoint(linkFarmTagRoute, {
  invalid: missingParameters,
  handler: async ({ query, principal }) => {
    const { tagId, farmId } = required(query);
    return tagMap(await tags.linkFarm(principal, tagId, farmId));
  },
});

export const del = endpoint(unlinkFarmTagRoute, {
  invalid: missingParameters,
  handler: async ({ query, principal }) => {
    const { tagId, farmId } = required(query);
    return tagMap(await tags.unlinkFarm(principal, tagId, farmId));
  },
});
