// Personal inputs in DynamoDB: one item per input in its owner's partition, keyed by its uuid (a
// uuid names an input within its owner's list: docs/decisions.md, "Inputs").

import { as, bool, type EntityOf, entity, nullable, num, str, strOr } from '../db/entity';
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import { getItem, NOT_EXISTS, nextId, queryAll, type TxOp, transact, tx } from '../db/table';
import { type Component, PERSONAL_INPUT_ID_OFFSET } from './catalogue';
import type { InputRepository, InputWrite, PersonalInput } from './service';

const PersonalInputItem = entity('input', {
  id: num('input_id'),
  uuid: str('input_uuid'),
  name: str('name'),
  ownerId: num('owner_id'),
  code: nullable(str('code')),
  country: nullable(str('country')),
  company: nullable(str('company')),
  type: nullable(str('type')),
  state: nullable(str('state')),
  density: nullable(num('density')),
  composition: as<unknown>('composition', null),
  components: as<Component[]>('components', []),
  deleted: bool('deleted'),
  createdAt: str('created_at'),
  createdWith: strOr('created_with', ''),
  version: num('version'),
});
type Check = EntityOf<typeof PersonalInputItem> extends PersonalInput ? true : never;
const _typesAgree: Check = true;
void _typesAgree;

export const personalInputFromItem = (item: Record<string, unknown>): PersonalInput => PersonalInputItem.fromItem(item);

/** The transaction items of input writes (a labour adds them to its own transaction). */
export function inputWriteOps(writes: InputWrite[]): TxOp[] {
  return writes.flatMap((write): TxOp[] => {
    if ('create' in write) {
      const input = write.create;
      return [
        tx.put(
          { ...keys.userInput(input.ownerId, input.uuid), ...PersonalInputItem.toItem(input) },
          NOT_EXISTS,
          () => new LostRace('input created meanwhile'),
        ),
      ];
    }
    const input = write.change;
    return [
      tx.put(
        { ...keys.userInput(input.ownerId, input.uuid), ...PersonalInputItem.toItem(input) },
        'version = :v',
        () => new LostRace('input changed meanwhile'),
        {
          ':v': write.version,
        },
      ),
    ];
  });
}

export const dynamoInputRepository: InputRepository = {
  async personalInputs(userId) {
    return (await queryAll(keys.userInputsPrefix(userId))).map(personalInputFromItem);
  },
  async newId(ownerId) {
    // one sequence per owner: a global one showed everyone the platform's volume. An
    // owner's sequence starts after the inputs it holds from when ids were global (read once, when
    // the sequence does not exist yet), so that its ids stay unique in its list.
    const sequence = `input#${ownerId}`;
    const started = await getItem(keys.counter(sequence));
    const after = started
      ? 0
      : Math.max(
          0,
          ...(await dynamoInputRepository.personalInputs(ownerId)).map((input) => input.id - PERSONAL_INPUT_ID_OFFSET),
        );
    return PERSONAL_INPUT_ID_OFFSET + (await nextId(sequence, after));
  },
  async save(writes) {
    if (writes.length) await transact(inputWriteOps(writes));
  },
};
