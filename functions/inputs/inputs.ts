// /api/registro_campo/insumos (list) and /registro_campo/insumo (POST, PATCH, DELETE), spec 3 Inputs.
import { endpoint } from '../../lib/http/endpoint';
import { dynamoInputRepository } from '../../lib/inputs/repository';
import { inputsService } from '../../lib/inputs/service';
import { parseEach } from '../../schemas/common';
import {
  createInputsRoute,
  deleteInputsRoute,
  InputChangeItem,
  InputSelectorItem,
  listInputsRoute,
  modifyInputsRoute,
  NewInputItem,
  wireDenied,
  wireInput,
  wireRef,
} from '../../schemas/inputs';

const inputs = inputsService({ repository: dynamoInputRepository });
const same = <T>(value: T) => value;

export const list = endpoint(listInputsRoute, {
  handler: async ({ query, principal }) =>
    (await inputs.list(principal, { userInput: query.user_input, code: query.code, country: query.country })).map(
      wireInput,
    ),
});

export const post = endpoint(createInputsRoute, {
  handler: async ({ body, principal }) => {
    const { done, denied } = await inputs.create(principal, parseEach(NewInputItem, body, same));
    return {
      status: 'successful inputs creation',
      res: 'OK',
      denied: denied.map(wireDenied),
      created: done.map((r) => ({ nombre: r.name, id: r.id, uuid: r.uuid })),
    } as const;
  },
});

export const patch = endpoint(modifyInputsRoute, {
  handler: async ({ body, principal }) => {
    const { done, denied } = await inputs.modify(principal, parseEach(InputChangeItem, body, same));
    return {
      status: 'successful inputs modification',
      res: 'OK',
      modificated: done.map(wireRef),
      denied: denied.map(wireDenied),
    } as const;
  },
});

export const del = endpoint(deleteInputsRoute, {
  handler: async ({ body, principal }) => {
    const { done, denied } = await inputs.remove(principal, parseEach(InputSelectorItem, body, same));
    return {
      status: 'successful inputs deletion',
      res: 'OK',
      deleted: done.map(wireRef),
      denied: denied.map(wireDenied),
    } as const;
  },
});
