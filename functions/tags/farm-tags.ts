// /api/tags_campos/tag: POST, PATCH, GET, DELETE (spec 2, Farm tags)
import { Invalid } from '../../lib/errors';
import { endpoint } from '../../lib/http/endpoint';
import { TAG_CODES } from '../../lib/tags/codes';
import { tags } from '../../lib/tags/instance';
import {
  createFarmTagRoute,
  deleteFarmTagRoute,
  getFarmTagsRoute,
  tagMap,
  updateFarmTagRoute,
} from '../../schemas/tags';

const missing = (what: string) => new Invalid(`Faltan parámetros: ${what}`, { code: TAG_CODES.MISSING });
const invalid = () => new Invalid('Parámetros con formato inválido', { code: TAG_CODES.MISSING });

export const post = endpoint(createFarmTagRoute, {
  invalid,
  handler: async ({ query, principal }) => {
    if (!query.desc?.trim()) throw missing('desc');
    const tag = await tags.createTag(principal, { desc: query.desc, color: query.color, farmId: query.id_campo });
    return { color: tag.color, res: 'creado', tag: tag.tag, id_tag: tag.id, id_campo: query.id_campo ?? null };
  },
});

export const patch = endpoint(updateFarmTagRoute, {
  invalid,
  handler: async ({ query, principal }) => {
    if (query.id_tag === undefined) throw missing('id_tag');
    const tag = await tags.updateTag(principal, { tagId: query.id_tag, desc: query.desc, color: query.color });
    return { color: tag.color, id_usuario: principal.user.id, tag: tag.tag, id_tag: tag.id, res: 'modificado' };
  },
});

export const get = endpoint(getFarmTagsRoute, {
  invalid,
  handler: async ({ query, principal }) => {
    if (query.id_tag !== undefined) {
      return { filter: 'tag info', result: tagMap([await tags.requireTag(principal.user.id, query.id_tag)]) };
    }
    if (query.id_campo !== undefined) {
      return { filter: 'farm tags', result: tagMap(await tags.tagsOfReadableFarm(principal, query.id_campo)) };
    }
    return { filter: 'user tags', result: tagMap(await tags.tagsOfUser(principal.user.id)) };
  },
});

export const del = endpoint(deleteFarmTagRoute, {
  invalid,
  handler: async ({ query, principal }) => {
    if (query.id_tag === undefined) throw missing('id_tag');
    await tags.deleteTag(principal, query.id_tag);
    return { res: 'eliminado', id_tag: query.id_tag };
  },
});
