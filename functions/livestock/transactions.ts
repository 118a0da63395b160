// /livestock/transaction/paddock, /livestock/transaction/exit, exit types (spec 1)
import { endpoint } from '../../lib/http/endpoint';
import { EXIT_TYPES } from '../../lib/livestock/model';
import { livestock } from '../../lib/livestock/repository';
import { exitRoute, exitTypesRoute, paddockMoveRoute, wireTransaction } from '../../schemas/livestock';

export const paddock = endpoint(paddockMoveRoute, {
  handler: async ({ body, principal }) =>
    wireTransaction(
      await livestock.movePaddock(principal, {
        originHerdUuid: body.origin_herd_uuid,
        originPaddockUuid: body.origin_paddock_uuid,
        destinationPaddockUuid: body.destination_paddock_uuid,
        transactionDate: body.transaction_date,
        herdName: body.herd_name,
        herdCategory: body.herd_category,
        maxCount: body.max_count,
        animalCount: body.animal_count,
        weight: body.weight,
        weightUnit: body.weight_unit,
        note: body.note,
        destinationField: body.destination_field,
        transactionUuid: body.transaction_uuid,
      }),
    ),
});

export const exit = endpoint(exitRoute, {
  handler: async ({ body, principal }) =>
    wireTransaction(
      await livestock.recordExit(principal, {
        destinationType: body.destination_type,
        animalCount: body.animal_count,
        weight: body.weight,
        weightUnit: body.weight_unit,
        originHerdUuid: body.origin_herd_uuid,
        destinationHerdUuid: body.destination_herd_uuid,
        transactionUuid: body.transaction_uuid,
        transactionDate: body.transaction_date,
      }),
    ),
});

export const exitTypes = endpoint(exitTypesRoute, {
  handler: async () => ({ data: EXIT_TYPES.map(({ id, type }) => ({ id, type })) }),
});
