// /livestock/herd (and /api/livestock/herd): GET, POST, PATCH, DELETE, categories, history (spec 1)
import { endpoint } from '../../lib/http/endpoint';
import { HERD_CATEGORIES } from '../../lib/livestock/model';
import { livestock } from '../../lib/livestock/repository';
import {
  createHerdRoute,
  deleteHerdRoute,
  herdCategoriesRoute,
  herdHistoryRoute,
  listHerdsRoute,
  updateHerdRoute,
  wireHerd,
} from '../../schemas/livestock';

export const list = endpoint(listHerdsRoute, {
  handler: async ({ principal }) => ({ data: (await livestock.listHerds(principal)).map(wireHerd) }),
});

export const post = endpoint(createHerdRoute, {
  handler: async ({ body, principal }) => ({
    data: wireHerd(
      await livestock.createHerd(principal, {
        fieldId: body.field_id,
        typeId: body.type_id,
        animalCount: body.animal_count,
        weight: body.weight,
        weightUnit: body.weight_unit,
        name: body.herd_name,
        paddockUuid: body.paddock_uuid,
        uuid: body.herd_uuid,
      }),
    ),
  }),
});

export const patch = endpoint(updateHerdRoute, {
  handler: async ({ path, body, principal }) => ({
    data: wireHerd(
      await livestock.updateHerd(principal, path.herd_uuid, {
        typeId: body.type_id,
        name: body.herd_name,
        newAnimals: {
          count: body.new_animals.new_animals_count,
          weight: body.new_animals.new_animals_weight,
          weightUnit: body.new_animals.new_animals_weight_unit,
        },
      }),
    ),
  }),
});

export const del = endpoint(deleteHerdRoute, {
  handler: async ({ path, principal }) => {
    await livestock.deleteHerd(principal, path.herd_uuid);
    return { data: { herd_uuid: path.herd_uuid.toLowerCase(), deleted: true } };
  },
});

export const categories = endpoint(herdCategoriesRoute, {
  handler: async () => ({ data: HERD_CATEGORIES.map(({ id, name }) => ({ id, name })) }),
});

export const history = endpoint(herdHistoryRoute, {
  handler: async ({ path, principal }) => ({ data: await livestock.historyOf(principal, path.herd_uuid) }),
});
