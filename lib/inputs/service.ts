// Inputs (spec 3): the master catalogue (lib/inputs/catalogue.ts) plus each user's personal
// inputs. POST, PATCH and DELETE take arrays and process each item on its own: an item that
// cannot be processed is listed under `denied` with its reason and the others still apply. Only
// the owner changes or deletes a personal input; a deleted input leaves the list but stays
// readable inside the labours that use it (docs/decisions.md, "Inputs").
//
// The rules take their repository as a parameter (tests/unit/inputs.test.ts runs them in memory);
// lib/inputs/repository.ts keeps them in DynamoDB.
import type { Principal } from '../auth/principal';
import { retryLostRace } from '../db/retry';
import { newUuid } from '../util/uuid';
import { type InputRecord, MASTER_INPUTS, masterInputById, masterInputByUuid } from './catalogue';

export interface PersonalInput extends InputRecord {
  ownerId: number;
  deleted: boolean;
  createdAt: string;
  version: number;
}

/** The attributes a client may give a personal input besides its name. */
export type InputAttributes = Partial<
  Pick<InputRecord, 'code' | 'country' | 'company' | 'type' | 'state' | 'density' | 'composition'>
>;

/** A write of personal inputs: made new (the uuid must still be free) or changed from `version`. */
export type InputWrite = { create: PersonalInput } | { change: PersonalInput; version: number };

export interface InputRepository {
  /** The user's personal inputs, deleted ones included. */
  personalInputs(userId: number): Promise<PersonalInput[]>;
  /** The user holding a personal input of this uuid, if any. */
  holderOf(uuid: string): Promise<number | undefined>;
  /**
   * A new personal input id of the owner (PERSONAL_INPUT_ID_OFFSET and above): ids count each owner's
   * inputs, so they tell nothing of other users' (docs/security.md, numbered ids).
   */
  newId(ownerId: number): Promise<number>;
  /** Writes all at once; a uuid taken or a version moved meanwhile throws LostRace. */
  save(writes: InputWrite[]): Promise<void>;
}

/** At most this many items in one POST, PATCH or DELETE. */
export const INPUT_BATCH_MAX = 100;
export const INPUT_NAME_MAX = 200;

export interface InputFilters {
  userInput?: boolean;
  code?: string;
  country?: string;
}

/** Inputs answered by the list and by the changes: `{id, name, uuid}`. */
export interface InputRef {
  id: number;
  name: string;
  uuid: string;
}

export interface Denied<T> {
  item: T;
  reason: string;
}

export interface BatchResult<T> {
  done: InputRef[];
  denied: Array<Denied<T>>;
}

export type InputRequest<T> = { input: T } | { malformed: string; raw: unknown };

export interface NewInput extends InputAttributes {
  name: string;
  uuid?: string;
}
export interface InputChange extends InputAttributes {
  uuid?: string;
  id?: number;
  name?: string;
}
export interface InputSelector {
  uuid?: string;
  id?: number;
}

const NOT_YOURS = 'no input of yours has this uuid or id';

const ref = (input: InputRecord): InputRef => ({ id: input.id, name: input.name, uuid: input.uuid });

/** Filters of the list, combined with AND (spec 3): `country` keeps that country's inputs and those of no country. */
export function filterInputs<T extends InputRecord>(inputs: T[], filters: InputFilters): T[] {
  const country = filters.country?.toUpperCase();
  return inputs.filter(
    (input) =>
      (filters.userInput === undefined || (input.ownerId !== null) === filters.userInput) &&
      (filters.code === undefined || input.code === filters.code) &&
      (country === undefined || input.country === null || input.country.toUpperCase() === country),
  );
}

/** The caller's own input named by uuid or id (both must name the same one), deleted ones included. */
export function findOwn(personal: PersonalInput[], selector: InputSelector): PersonalInput | undefined | 'mismatch' {
  const byUuid = selector.uuid ? personal.find((p) => p.uuid === selector.uuid!.toLowerCase()) : undefined;
  const byId = selector.id !== undefined ? personal.find((p) => p.id === selector.id) : undefined;
  if (selector.uuid && selector.id !== undefined && byUuid !== byId) return byUuid || byId ? 'mismatch' : undefined;
  return byUuid ?? byId;
}

const isMaster = (selector: InputSelector) =>
  Boolean(
    (selector.uuid && masterInputByUuid(selector.uuid)) || (selector.id !== undefined && masterInputById(selector.id)),
  );

/**
 * The caller's personal inputs for one batch: read once, kept up to date with the batch's own
 * writes, and read again after a lost race (another request changed them).
 */
interface PersonalInputs {
  all(): Promise<PersonalInput[]>;
  /** Writes inputs, and keeps them in the batch's list. */
  save(writes: InputWrite[]): Promise<void>;
  forget(): void;
}

export function inputsService({
  repository,
  now = () => new Date(),
}: {
  repository: InputRepository;
  now?: () => Date;
}) {
  function personalInputsOf(userId: number): PersonalInputs {
    let list: PersonalInput[] | undefined;
    return {
      all: async () => (list ??= await repository.personalInputs(userId)),
      async save(writes) {
        await repository.save(writes);
        const written = writes.map((w) => ('create' in w ? w.create : w.change));
        if (list) list = [...list.filter((p) => !written.some((w) => w.uuid === p.uuid)), ...written];
      },
      forget: () => void (list = undefined),
    };
  }

  /** Runs `work` per item, with the caller's inputs read once for the batch; a refusal (`string`) denies the item. */
  async function each<T>(
    userId: number,
    requests: Array<InputRequest<T>>,
    work: (item: T, own: PersonalInputs) => Promise<InputRef | string>,
  ): Promise<BatchResult<T | unknown>> {
    const result: BatchResult<T | unknown> = { done: [], denied: [] };
    const own = personalInputsOf(userId);
    for (const request of requests) {
      if ('malformed' in request) {
        result.denied.push({ item: request.raw, reason: request.malformed });
        continue;
      }
      const outcome = await retryLostRace((attempt) => {
        if (attempt > 1) own.forget();
        return work(request.input, own);
      });
      if (typeof outcome === 'string') result.denied.push({ item: request.input, reason: outcome });
      else result.done.push(outcome);
    }
    return result;
  }

  /** The caller's own input an item of PATCH or DELETE names (deleted ones included), or why there is none. */
  async function named(
    own: PersonalInputs,
    item: InputSelector,
    verb: 'changed' | 'deleted',
  ): Promise<PersonalInput | string> {
    if (!item.uuid && item.id === undefined) return 'uuid or id is required';
    const found = findOwn(await own.all(), item);
    if (found === 'mismatch') return 'uuid and id name different inputs';
    return found ?? (isMaster(item) ? `master inputs cannot be ${verb}` : NOT_YOURS);
  }

  return {
    /** Master inputs and the caller's personal inputs (not deleted), filtered. */
    async list(principal: Principal, filters: InputFilters): Promise<InputRecord[]> {
      const personal = (await repository.personalInputs(principal.user.id))
        .filter((p) => !p.deleted)
        .sort((a, b) => a.id - b.id);
      return filterInputs([...MASTER_INPUTS, ...personal], filters);
    },

    /** POST: each item creates a personal input; a repeated uuid answers the input it made. */
    create(principal: Principal, requests: Array<InputRequest<NewInput>>) {
      const userId = principal.user.id;
      return each(userId, requests, async (item, mine) => {
        const uuid = (item.uuid ?? newUuid()).toLowerCase();
        if (masterInputByUuid(uuid)) return 'the uuid is a master input';
        const own = findOwn(await mine.all(), { uuid });
        if (own && own !== 'mismatch') {
          if (!own.deleted) return ref(own);
          // a deleted input created again comes back, with what this item says
          const revived = { ...own, ...attributes(item), name: item.name, deleted: false, version: own.version + 1 };
          await mine.save([{ change: revived, version: own.version }]);
          return ref(revived);
        }
        if ((await repository.holderOf(uuid)) !== undefined) return 'the uuid is already used by another input';
        const input: PersonalInput = {
          ...blank(userId, uuid, await repository.newId(userId), now()),
          ...attributes(item),
          name: item.name,
        };
        await mine.save([{ create: input }]);
        return ref(input);
      });
    },

    /** PATCH: each item changes the caller's own input it names (uuid or id). */
    modify(principal: Principal, requests: Array<InputRequest<InputChange>>) {
      return each(principal.user.id, requests, async (item, mine) => {
        const own = await named(mine, item, 'changed');
        if (typeof own === 'string') return own;
        if (own.deleted) return NOT_YOURS;
        const changed: PersonalInput = {
          ...own,
          ...attributes(item),
          name: item.name ?? own.name,
          version: own.version + 1,
        };
        await mine.save([{ change: changed, version: own.version }]);
        return ref(changed);
      });
    },

    /** DELETE: each item deletes the caller's own input it names (deleting it again answers it again). */
    remove(principal: Principal, requests: Array<InputRequest<InputSelector>>) {
      return each(principal.user.id, requests, async (item, mine) => {
        const own = await named(mine, item, 'deleted');
        if (typeof own === 'string') return own;
        if (!own.deleted)
          await mine.save([{ change: { ...own, deleted: true, version: own.version + 1 }, version: own.version }]);
        return ref(own);
      });
    },
  };
}

export function blank(ownerId: number, uuid: string, id: number, at: Date): PersonalInput {
  return {
    id,
    uuid: uuid.toLowerCase(),
    name: '',
    ownerId,
    code: null,
    country: null,
    company: null,
    type: null,
    state: null,
    density: null,
    composition: null,
    components: [],
    deleted: false,
    createdAt: at.toISOString(),
    version: 1,
  };
}

function attributes(item: InputAttributes): InputAttributes {
  const picked: InputAttributes = {};
  for (const key of ['code', 'country', 'company', 'type', 'state', 'density', 'composition'] as const) {
    if (item[key] !== undefined) (picked as Record<string, unknown>)[key] = item[key];
  }
  if (picked.country) picked.country = picked.country.toUpperCase();
  return picked;
}

// --- inputs inside a labour (spec 3, "Input inside a labour") -------------------------------------

/** An item of a labour's inputs as sent. */
export interface LabourInputRequest {
  id?: number;
  uuid?: string;
  name?: string;
}

export interface ResolvedInput {
  input: InputRecord;
  /** Whether it is one of the caller's personal inputs (created or changed here included). */
  personal: boolean;
}

export interface InputPlan {
  /** One per item, in order. */
  resolved: ResolvedInput[];
  writes: InputWrite[];
}

/** A rule of the inputs list broken: the caller turns it into its area's 400. */
export class InputRuleBroken extends Error {}

/**
 * The spec's rules for a labour's complete list of inputs: an item naming an existing input (own or
 * master, by id or uuid) uses it, and renames an own input whose name differs (master inputs are
 * not changed); an item without id or uuid, or with a uuid absent from the caller's list, creates a
 * personal input (with that uuid). A deleted own input named again comes back. `holders` tells who
 * holds the uuids that are neither master nor the caller's; `newIds` gives ids for creations.
 */
export async function planLabourInputs(
  userId: number,
  items: LabourInputRequest[],
  personal: PersonalInput[],
  holders: Map<string, number>,
  newId: () => Promise<number>,
  at: Date,
): Promise<InputPlan> {
  const resolved: ResolvedInput[] = [];
  const writes = new Map<string, InputWrite>();
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    const where = `inputs[${index}]`;
    const master =
      (item.id !== undefined ? masterInputById(item.id) : undefined) ??
      (item.uuid ? masterInputByUuid(item.uuid) : undefined);
    const own = findOwn(personal, item);
    if (
      own === 'mismatch' ||
      (master && own) ||
      (master && item.id !== undefined && item.uuid && master.uuid !== item.uuid.toLowerCase())
    ) {
      throw new InputRuleBroken(`${where}: id and uuid name different inputs`);
    }
    let chosen: ResolvedInput;
    if (master) {
      chosen = { input: master, personal: false };
    } else if (own) {
      const name = item.name?.trim() || own.name;
      const current = (writes.get(own.uuid) as { change: PersonalInput } | undefined)?.change ?? own;
      if (name !== current.name || own.deleted) {
        const changed = { ...current, name, deleted: false, version: own.version + 1 };
        writes.set(own.uuid, { change: changed, version: own.version });
        chosen = { input: changed, personal: true };
      } else chosen = { input: current, personal: true };
    } else {
      if (item.id !== undefined && !item.uuid) throw new InputRuleBroken(`${where}: no input has id ${item.id}`);
      if (item.id !== undefined)
        throw new InputRuleBroken(`${where}: no input has id ${item.id}; send only the uuid to create one`);
      const uuid = (item.uuid ?? newUuid()).toLowerCase();
      const holder = holders.get(uuid);
      if (holder !== undefined && holder !== userId)
        throw new InputRuleBroken(`${where}: the uuid ${uuid} is already used by another input`);
      const name = item.name?.trim();
      if (!name) throw new InputRuleBroken(`${where}: name is required to create an input`);
      const created = { ...blank(userId, uuid, await newId(), at), name };
      writes.set(uuid, { create: created });
      chosen = { input: created, personal: true };
    }
    if (seen.has(chosen.input.uuid))
      throw new InputRuleBroken(`${where}: the input ${chosen.input.uuid} is listed twice`);
    seen.add(chosen.input.uuid);
    resolved.push(chosen);
  }
  return { resolved, writes: [...writes.values()] };
}
