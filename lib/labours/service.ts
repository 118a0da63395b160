// Labours (spec 3): list with the spec's filters and paging; create, change and delete (not shown
// by the spec; the contract is in docs/decisions.md, "Labours"). A labour lives in its field's
// partition under its campaign; one transaction writes it with the personal inputs its list
// creates or renames and its campaign's `biennial`.
//
// The service is built from its repositories and field gate (services take them as parameters):
// its rules run against DynamoDB in the functions (lib/labours/repository.ts) and against memory in
// tests/unit/labours.test.ts.
import type { Principal } from '../auth/principal';
import { farmReach } from '../authz/by-farm';
import type { FieldGate, FieldInScope } from '../authz/gate';
import type { Crop } from '../crops/catalogue';
import { LostRace, retryLostRace } from '../db/retry';
import { Conflict, type DomainError, Forbidden, Invalid, NotFound } from '../errors';
import type { Campaign } from '../fields/campaigns';
import { type LabourTally, tallied } from '../fields/labour-tally';
import { masterInputByUuid } from '../inputs/catalogue';
import {
  type InputRepository,
  InputRuleBroken,
  type InputWrite,
  type PersonalInput,
  planLabourInputs,
} from '../inputs/service';
import type { Farm, Field, FieldRef } from '../platform/model';
import { fingerprint } from '../util/fingerprint';
import { mapLimit } from '../util/map-limit';
import { mergeOrdered, pageShare } from '../util/merge';
import { newUuid } from '../util/uuid';
import { LABOUR_CODES, labourTaken } from './codes';
import {
  byDate,
  type Costs,
  foreignTypeFields,
  LABOUR_INPUTS_MAX,
  LABOUR_TYPE,
  type Labour,
  type LabourFilters,
  type LabourInput,
  type LabourTypeId,
  matches,
  paginate,
  STATUS,
  type Status,
  takesInputs,
} from './model';

/** Tolerance on the field's area when checking `surface` (rounding of client-side areas). */
const AREA_TOLERANCE = 1.005;

export interface LabourInputItem {
  id?: number;
  uuid?: string;
  name?: string;
  dose: number;
  unit: string;
  observations?: string | null;
  pestUuid?: string | null;
  warehouseUuid?: string | null;
  justifyId?: number | null;
  stock?: unknown;
}

/** What a create sends, or what a change sends (only the members present change). */
export interface LabourWrite {
  uuid?: string;
  typeId?: LabourTypeId;
  status?: Status;
  yeargroup?: number;
  biennial?: boolean;
  date?: string;
  fieldId?: number;
  fieldUuid?: string;
  rotationUuid?: string | null;
  surface?: number;
  observations?: string;
  attachments?: string[];
  stock?: unknown[];
  resources?: unknown[];
  staff?: string[];
  costs?: Partial<Costs>;
  inputs?: LabourInputItem[];
  mapId?: number | null;
  /** Type fields other than inputs and map_id, by their spec names. */
  details?: Record<string, unknown>;
}

export interface LabourView<F extends FieldRef = Field> {
  labour: Labour;
  field: F;
  farm: Farm;
  biennial: boolean;
  rotation: { uuid: string; cropId: number; cropName: string | null } | null;
  /** Current name of each input (by uuid) and whether it was deleted. */
  inputs: Map<string, { name: string; deleted: boolean }>;
}

export interface LabourPage {
  views: LabourView<FieldRef>[];
  page: number;
  totalPages: number;
}

/** One labour written with what goes with it, all at once. */
export interface LabourSave {
  labour: Labour;
  /** The version read for a change; absent for a new labour (its uuid must be free: `taken`). */
  previousVersion?: number;
  /** The status read for a change (its campaign's tally moves the labour from it). */
  previousStatus?: Status;
  /** Personal inputs the labour's list creates or renames. */
  inputs: InputWrite[];
  /** The campaign's `biennial` to set (nothing when it already has that value). */
  biennial?: { campaign: Campaign; value: boolean | undefined };
}

/**
 * How the names and flags a labour's view shows are read: strongly consistent (the default: the
 * answer to a change shows what it wrote), or, `listing`, eventually consistent at half the read
 * units, as a page of labours is (its labours come from an index).
 */
export interface ShownOptions {
  listing?: boolean;
}

const LISTING: ShownOptions = { listing: true };

/** The key of the maps the repository answers (rotations, campaigns, personal inputs): the parts joined by '|'. */
export const refKey = (...parts: Array<string | number>) => parts.join('|');

/** Where labours (and what their rules read around them) are kept. */
export interface LabourRepository {
  /** The field and campaign of each labour of a uuid (a uuid names a labour within its field). */
  homes(uuid: string): Promise<Array<{ fieldId: number; yeargroup: number }>>;
  labour(fieldId: number, yeargroup: number, uuid: string): Promise<Labour | undefined>;
  laboursOf(fieldId: number, yeargroup: number): Promise<Labour[]>;
  /**
   * A field's labours of a campaign in the list's order (byDate), from `dateFrom` to `dateTo` when
   * given, read `chunk` at a time as they are iterated (an index: eventually consistent).
   */
  laboursByDate(
    fieldId: number,
    yeargroup: number,
    options: { dateFrom?: string; dateTo?: string; chunk: number },
  ): AsyncIterable<Labour>;
  /**
   * A farm's labours of a campaign in the list's order, as laboursByDate (an index: eventually
   * consistent); those of a field deleted and not yet cleaned up among them.
   */
  laboursOfFarm(
    farmId: number,
    yeargroup: number,
    options: { dateFrom?: string; dateTo?: string; chunk: number },
  ): AsyncIterable<Labour>;
  /** Whether every labour is in its farm's index and counted in its farm's tally (the backfill is done). */
  byFarm(): Promise<boolean>;
  /** Each farm's tally of a campaign (yeargroup) by `farmId|yeargroup`: the sum of its fields' campaigns' tallies. */
  farmTallies(refs: Array<{ farmId: number; yeargroup: number }>): Promise<Map<string, LabourTally>>;
  /**
   * Each campaign by `fieldId|yeargroup`, with its tally (undefined: made before the tally and not
   * counted yet; no campaign: an empty tally, no labour), read once for a list's total and its views.
   */
  tallies(
    refs: Array<{ fieldId: number; yeargroup: number }>,
  ): Promise<Map<string, { tally: LabourTally | undefined; campaign?: Campaign }>>;
  /** Rotations by `fieldId|uuid`: their crop and campaign. */
  rotations(
    refs: Array<{ fieldId: number; uuid: string }>,
    options?: ShownOptions,
  ): Promise<Map<string, { cropId: number; yeargroup: number }>>;
  /** Campaigns by `fieldId|yeargroup`. */
  campaigns(
    refs: Array<{ fieldId: number; yeargroup: number }>,
    options?: ShownOptions,
  ): Promise<Map<string, Campaign>>;
  /** The campaign of a field and yeargroup, made on first use (with `biennial` when new). */
  campaignOf(fieldId: number, yeargroup: number, biennial?: boolean): Promise<Campaign>;
  /** The field of a map. */
  mapField(mapId: number): Promise<number | undefined>;
  /** Personal inputs by `ownerId|uuid`. */
  personalInputs(
    refs: Array<{ ownerId: number; uuid: string }>,
    options?: ShownOptions,
  ): Promise<Map<string, PersonalInput>>;
  /** Writes a labour save (labourTaken for a new labour's uuid in use, labourStale for a change that lost its race). */
  save(change: LabourSave): Promise<void>;
  remove(labour: Labour, gone: () => DomainError): Promise<void>;
}

export interface LabourDeps {
  repository: LabourRepository;
  inputs: InputRepository;
  fields: FieldGate;
  crops: (userId: number, cropId: number) => Promise<Crop | undefined>;
  now?: () => Date;
}

const invalid = (code: number, message: string) => new Invalid(message, { code });
const labourNotFound = (uuid: string) => () =>
  new NotFound(`labour ${uuid} not found`, { code: LABOUR_CODES.NOT_FOUND });
const notAllowed = () =>
  new Forbidden('you cannot change the labours of this field', { code: LABOUR_CODES.NOT_ALLOWED });
const fieldNotFound = () => new NotFound('field not found', { code: LABOUR_CODES.INVALID_FIELD });

function checkTypeFields(typeId: LabourTypeId, write: LabourWrite): void {
  const sent = [
    ...Object.keys(write.details ?? {}),
    ...(write.inputs !== undefined ? ['inputs'] : []),
    ...(write.mapId !== undefined ? ['map_id'] : []),
  ];
  const foreign = foreignTypeFields(typeId, sent);
  if (foreign.length)
    throw invalid(LABOUR_CODES.WRONG_TYPE_FIELDS, `labour type ${typeId} does not take ${foreign.join(', ')}`);
  if (write.costs?.seed && typeId !== LABOUR_TYPE.SOWING)
    throw invalid(LABOUR_CODES.WRONG_TYPE_FIELDS, 'costs.seed is for sowings (labour type 3)');
  if (write.costs?.inputs && Object.keys(write.costs.inputs).length && !takesInputs(typeId)) {
    throw invalid(LABOUR_CODES.WRONG_TYPE_FIELDS, `labour type ${typeId} has no inputs to cost`);
  }
}

function checkInputCosts(costs: Costs, lines: LabourInput[]): void {
  const uuids = new Set(lines.map((l) => l.inputUuid));
  const stray = Object.keys(costs.inputs).filter((uuid) => !uuids.has(uuid.toLowerCase()));
  if (stray.length)
    throw invalid(
      LABOUR_CODES.INVALID_INPUTS,
      `costs.inputs names inputs the labour does not list: ${stray.join(', ')}`,
    );
}

/** Costs without the entries of inputs no longer listed. */
const withoutStrayCosts = (costs: Costs, lines: LabourInput[]): Costs => {
  const uuids = new Set(lines.map((l) => l.inputUuid));
  return { ...costs, inputs: Object.fromEntries(Object.entries(costs.inputs).filter(([uuid]) => uuids.has(uuid))) };
};

const normalizeCosts = (
  costs: Partial<Costs> | undefined,
  base: Costs = { labour: null, inputs: {}, seed: null },
): Costs => ({
  labour: costs?.labour !== undefined ? costs.labour : base.labour,
  inputs:
    costs?.inputs !== undefined
      ? Object.fromEntries(Object.entries(costs.inputs).map(([k, v]) => [k.toLowerCase(), v]))
      : base.inputs,
  seed: costs?.seed !== undefined ? costs.seed : base.seed,
});

export type LabourCreate = LabourWrite & { typeId: LabourTypeId; status: Status; yeargroup: number; date: string };

/** Several sources' labours, each in the list's order, merged in that order (mergeOrdered), each with its source. */
async function* mergedByDate<S>(sources: Array<{ source: S; labours: AsyncIterable<Labour> }>) {
  for await (const { item, index } of mergeOrdered(
    sources.map((s) => s.labours),
    byDate,
  ))
    yield { labour: item, source: sources[index]!.source };
}

/**
 * The first `wanted` labours of a merge that `keep` keeps; `keep` takes them in batches (no more at
 * a time than could still be wanted, so that nothing past the last one wanted is read).
 */
async function firstKept<S, T>(
  merged: AsyncGenerator<{ labour: Labour; source: S }>,
  keep: (batch: Array<{ labour: Labour; source: S }>) => Promise<T[]>,
  wanted: number,
  batchSize: number,
): Promise<T[]> {
  const out: T[] = [];
  let ended = false;
  try {
    while (!ended && out.length < wanted) {
      const batch: Array<{ labour: Labour; source: S }> = [];
      const size = Math.min(wanted - out.length, batchSize);
      while (batch.length < size) {
        const next = await merged.next();
        if (next.done) {
          ended = true;
          break;
        }
        batch.push(next.value);
      }
      if (batch.length) out.push(...(await keep(batch)));
    }
  } finally {
    await merged.return(undefined);
  }
  return out;
}

export function laboursService({ repository, inputs, fields, crops, now = () => new Date() }: LabourDeps) {
  // --- reading -------------------------------------------------------------------------------

  /**
   * The labour of a uuid, in a field the caller reaches for `action`: 404 when it reads none of the
   * fields holding a labour of that uuid (exactly as a uuid nobody uses), 403 when it only reads it.
   * Two tenants may each have a labour of one uuid; the caller's reach decides (the lower field id first).
   */
  async function locate(
    principal: Principal,
    uuid: string,
    action: 'read' | 'write',
  ): Promise<FieldInScope & { labour: Labour }> {
    const refuse = labourNotFound(uuid);
    const homes = await repository.homes(uuid);
    if (!homes.length) throw refuse();
    const scope = await fields.among(
      principal,
      homes.map((h) => h.fieldId),
      action,
      { notFound: refuse, forbidden: notAllowed },
    );
    const home = homes.find((h) => h.fieldId === scope.field.id)!;
    const labour = await repository.labour(scope.field.id, home.yeargroup, uuid);
    if (!labour) throw refuse();
    return { ...scope, labour };
  }

  /** Labours by uuid that the caller can read (others are left out), with their fields and farms. */
  async function readableLabours(
    principal: Principal,
    uuids: string[],
  ): Promise<Array<FieldInScope & { labour: Labour }>> {
    const found = await mapLimit(uuids, 8, (uuid) =>
      locate(principal, uuid, 'read').catch((error) => (error instanceof NotFound ? undefined : Promise.reject(error))),
    );
    return found.filter((entry): entry is FieldInScope & { labour: Labour } => Boolean(entry));
  }

  const rotationsOf = (entries: Array<{ labour: Labour; field: FieldRef }>, options?: ShownOptions) =>
    repository.rotations(
      entries.filter((e) => e.labour.rotationUuid).map((e) => ({ fieldId: e.field.id, uuid: e.labour.rotationUuid! })),
      options,
    );

  /** The campaigns of these labours by `fieldId|yeargroup`: those of `known` (read already), the others read. */
  async function campaignsOf(
    entries: Array<{ labour: Labour; field: FieldRef }>,
    known?: Map<string, { campaign?: Campaign }>,
    options?: ShownOptions,
  ): Promise<Map<string, Campaign>> {
    const found = new Map<string, Campaign>();
    const missing = new Map<string, { fieldId: number; yeargroup: number }>();
    for (const { labour, field } of entries) {
      const key = refKey(field.id, labour.yeargroup);
      const read = known?.get(key);
      if (read?.campaign) found.set(key, read.campaign);
      else if (!read) missing.set(key, { fieldId: field.id, yeargroup: labour.yeargroup });
    }
    if (missing.size)
      for (const [key, campaign] of await repository.campaigns([...missing.values()], options))
        found.set(key, campaign);
    return found;
  }

  /**
   * Names of the rotations' crops and the inputs of these labours, for their wire form (`known`:
   * rotations already read; `campaignsRead`: campaigns read with their tallies).
   */
  async function views<F extends FieldRef>(
    userId: number,
    entries: Array<{ labour: Labour; field: F; farm: Farm }>,
    known?: Map<string, { cropId: number; yeargroup: number }>,
    campaignsRead?: Map<string, { campaign?: Campaign }>,
    options?: ShownOptions,
  ): Promise<LabourView<F>[]> {
    const [rotations, campaigns, personal] = await Promise.all([
      known ?? rotationsOf(entries, options),
      campaignsOf(entries, campaignsRead, options),
      repository.personalInputs(
        entries.flatMap((e) =>
          e.labour.inputs.filter((i) => i.ownerId !== null).map((i) => ({ ownerId: i.ownerId!, uuid: i.inputUuid })),
        ),
        options,
      ),
    ]);
    const cropNames = new Map<number, string | null>();
    const cropName = async (cropId: number) => {
      if (!cropNames.has(cropId)) cropNames.set(cropId, (await crops(userId, cropId))?.name ?? null);
      return cropNames.get(cropId)!;
    };
    const result: LabourView<F>[] = [];
    for (const { labour, field, farm } of entries) {
      const rotation = labour.rotationUuid ? rotations.get(refKey(field.id, labour.rotationUuid)) : undefined;
      const names = new Map<string, { name: string; deleted: boolean }>();
      for (const line of labour.inputs) {
        const master = masterInputByUuid(line.inputUuid);
        const own = line.ownerId !== null ? personal.get(refKey(line.ownerId, line.inputUuid)) : undefined;
        names.set(line.inputUuid, {
          name: master?.name ?? own?.name ?? line.name,
          deleted: !master && (!own || own.deleted),
        });
      }
      result.push({
        labour,
        field,
        farm,
        biennial: campaigns.get(refKey(field.id, labour.yeargroup))?.biennial ?? false,
        rotation: rotation
          ? { uuid: labour.rotationUuid!, cropId: rotation.cropId, cropName: await cropName(rotation.cropId) }
          : null,
        inputs: names,
      });
    }
    return result;
  }

  // --- checks --------------------------------------------------------------------------------

  /** A labour's rotation belongs to its field and campaign. */
  async function checkRotation(
    field: Field,
    yeargroup: number,
    rotationUuid: string | null | undefined,
  ): Promise<void> {
    if (!rotationUuid) return;
    const rotation = (await repository.rotations([{ fieldId: field.id, uuid: rotationUuid }])).get(
      refKey(field.id, rotationUuid.toLowerCase()),
    );
    if (!rotation)
      throw invalid(LABOUR_CODES.INVALID_ROTATION, `rotation ${rotationUuid} is not a rotation of field ${field.id}`);
    if (rotation.yeargroup !== yeargroup) {
      throw invalid(
        LABOUR_CODES.INVALID_ROTATION,
        `rotation ${rotationUuid} belongs to the campaign ${rotation.yeargroup}, not ${yeargroup}`,
      );
    }
  }

  const fieldArea = async (field: Field, yeargroup: number): Promise<number> =>
    (await fields.shape(field, yeargroup)).areaHa;

  async function checkSurface(field: Field, yeargroup: number, surface: number): Promise<void> {
    const area = await fieldArea(field, yeargroup);
    if (surface > area * AREA_TOLERANCE) {
      throw invalid(
        LABOUR_CODES.SURFACE_EXCEEDS_FIELD,
        `surface (${surface} ha) exceeds the field's ${area.toFixed(2)} ha`,
      );
    }
  }

  /** A map referenced by an application is a map of the labour's field. */
  async function checkMap(field: Field, mapId: number | null | undefined): Promise<void> {
    if (mapId === null || mapId === undefined) return;
    if ((await repository.mapField(mapId)) !== field.id)
      throw invalid(LABOUR_CODES.INVALID_MAP, `map ${mapId} is not a map of field ${field.id}`);
  }

  /**
   * The complete list of a labour's inputs, resolved by the spec's rules, and the input writes it
   * needs. `current` are the lines of the labour being changed: an input it lists may be sent back
   * by whoever edits it, and a line whose input stays keeps its labour_input_uuid.
   */
  async function resolveInputs(
    userId: number,
    items: LabourInputItem[],
    current: LabourInput[] = [],
  ): Promise<{ lines: LabourInput[]; writes: InputWrite[] }> {
    if (items.length > LABOUR_INPUTS_MAX)
      throw invalid(LABOUR_CODES.INVALID_INPUTS, `at most ${LABOUR_INPUTS_MAX} inputs in a labour`);
    const personal = await inputs.personalInputs(userId);
    const listed = current.map((line) => ({
      uuid: line.inputUuid,
      id: line.inputId,
      ownerId: line.ownerId,
      name: line.name,
    }));
    try {
      const plan = await planLabourInputs(userId, items, personal, listed, () => inputs.newId(userId), now());
      const lines = plan.resolved.map((input, index): LabourInput => {
        const item = items[index]!;
        const kept = current.find((line) => line.inputUuid === input.uuid && line.ownerId === input.ownerId);
        return {
          labourInputUuid: kept?.labourInputUuid ?? newUuid(),
          inputUuid: input.uuid,
          inputId: input.id,
          ownerId: input.ownerId,
          name: input.name,
          dose: item.dose,
          unit: item.unit,
          observations: item.observations ?? null,
          pestUuid: item.pestUuid ?? null,
          warehouseUuid: item.warehouseUuid ?? null,
          justifyId: item.justifyId ?? null,
          stock: item.stock ?? null,
        };
      });
      return { lines, writes: plan.writes };
    } catch (error) {
      if (error instanceof InputRuleBroken) throw invalid(LABOUR_CODES.INVALID_INPUTS, error.message);
      throw error;
    }
  }

  async function fieldOf(principal: Principal, write: LabourWrite): Promise<FieldInScope> {
    if (write.fieldId === undefined && !write.fieldUuid)
      throw invalid(LABOUR_CODES.INVALID_FIELD, 'field_id or field_uuid is required');
    const refuse = { notFound: fieldNotFound, forbidden: notAllowed };
    const scope =
      write.fieldId !== undefined
        ? await fields.field(principal, write.fieldId, 'write', refuse)
        : await fields.fieldByUuid(principal, write.fieldUuid!, 'write', refuse);
    if (
      write.fieldId !== undefined &&
      write.fieldUuid &&
      scope.field.uuid.toLowerCase() !== write.fieldUuid.toLowerCase()
    ) {
      throw invalid(LABOUR_CODES.INVALID_FIELD, 'field_id and field_uuid name different fields');
    }
    return scope;
  }

  /** The labour to write for a create, with what goes with it. */
  async function newLabour(
    userId: number,
    field: Field,
    write: LabourCreate,
    options: { mapWrittenWith?: boolean } = {},
  ): Promise<LabourSave> {
    checkTypeFields(write.typeId, write);
    const campaign = await repository.campaignOf(field.id, write.yeargroup, write.biennial);
    await checkRotation(field, write.yeargroup, write.rotationUuid);
    const surface = write.surface ?? Math.round((await fieldArea(field, write.yeargroup)) * 10000) / 10000;
    if (write.surface !== undefined) await checkSurface(field, write.yeargroup, write.surface);
    if (!options.mapWrittenWith) await checkMap(field, write.mapId);
    const { lines, writes } = await resolveInputs(userId, write.inputs ?? []);
    const costs = normalizeCosts(write.costs);
    checkInputCosts(costs, lines);
    const at = now().toISOString();
    const labour: Labour = {
      uuid: (write.uuid ?? newUuid()).toLowerCase(),
      typeId: write.typeId,
      status: write.status,
      yeargroup: write.yeargroup,
      date: write.date,
      fieldId: field.id,
      farmId: field.farmId,
      fieldUuid: field.uuid,
      fieldName: field.name,
      campaignId: campaign.id,
      rotationUuid: write.rotationUuid?.toLowerCase() ?? null,
      mapId: write.mapId ?? null,
      surface,
      observations: write.observations ?? '',
      attachments: write.attachments ?? [],
      stock: write.stock ?? [],
      resources: write.resources ?? [],
      staff: write.staff ?? [],
      costs,
      inputs: lines,
      details: write.details ?? {},
      createdBy: userId,
      createdWith: '',
      createdAt: at,
      updatedAt: at,
      version: 1,
    };
    return { labour, inputs: writes, biennial: { campaign, value: write.biennial } };
  }

  /**
   * A page of every farm the caller reads (no field named): one query of each farm's index it reads
   * whole (gsi2, in the list's order, as far as the page) and of each field shared with it alone, and
   * the profiles of the fields of the labours read only; the total from the farms' tallies (and the
   * campaigns' of the fields shared alone). The same page as the fields' own indexes would answer:
   * a labour of a field the caller does not read (deleted, not yet cleaned up) is left out.
   * Undefined when a campaign of a field shared alone is not counted yet (the caller reads field by field).
   */
  async function byFarm(
    principal: Principal,
    filters: LabourFilters,
    keepFarm: (farm: Farm) => boolean,
    { page, pageSize, wanted, chunk }: { page: number; pageSize: number; wanted: number; chunk: number },
  ): Promise<LabourPage | undefined> {
    const { yeargroup } = filters;
    const reach = await farmReach(fields, principal, keepFarm, filters.farmIds);
    const singles = reach.readableSingleFieldIds;
    const [farmTallies, fieldTallies] = await Promise.all([
      repository.farmTallies(reach.wholeFarms.map((farm) => ({ farmId: farm.id, yeargroup }))),
      repository.tallies(singles.map((fieldId) => ({ fieldId, yeargroup }))),
    ]);
    if (singles.some((fieldId) => fieldTallies.get(refKey(fieldId, yeargroup))?.tally === undefined)) return undefined;
    // the page is shared among the sources: each reads its share first (then on, as the merge takes)
    const sources = reach.wholeFarms.length + singles.length;
    const each = pageShare(chunk, sources, 10);
    const range = { dateFrom: filters.dateFrom, dateTo: filters.dateTo, chunk: each };
    const found = await firstKept(
      mergedByDate([
        ...reach.wholeFarms.map((farm) => ({
          source: null,
          labours: repository.laboursOfFarm(farm.id, yeargroup, range),
        })),
        ...singles.map((fieldId) => ({
          source: null,
          labours: repository.laboursByDate(fieldId, yeargroup, range),
        })),
      ]),
      async (batch) => {
        const matching = batch.filter(({ labour }) => matches(labour, filters, undefined));
        // a labour's item names its field (written since it does, lib/labours/model.ts): no field read
        const readable = await reach.fieldsOf(matching.map(({ labour }) => labour));
        return matching.flatMap(({ labour }) => {
          const scope = readable.get(labour.fieldId);
          return scope ? [{ labour, ...scope }] : [];
        });
      },
      wanted,
      chunk,
    );
    const total = Number.isFinite(wanted)
      ? reach.wholeFarms.reduce(
          (sum, farm) => sum + tallied(farmTallies.get(refKey(farm.id, yeargroup))!, filters),
          0,
        ) +
        singles.reduce(
          (sum, fieldId) => sum + tallied(fieldTallies.get(refKey(fieldId, yeargroup))!.tally!, filters),
          0,
        )
      : found.length;
    const items = found.slice((page - 1) * pageSize, page * pageSize);
    return {
      views: await views(principal.user.id, items, undefined, fieldTallies, LISTING),
      page,
      totalPages: Math.ceil(total / pageSize),
    };
  }

  return {
    readableLabours,
    labourViews: views,

    async getLabour(principal: Principal, uuid: string): Promise<LabourView> {
      const { labour, field, farm } = await locate(principal, uuid, 'read');
      return (await views(principal.user.id, [{ labour, field, farm }]))[0]!;
    },

    /** GET /activities/labour: the labours of the fields the caller reads, filtered, by date, one page. */
    async listLabours(
      principal: Principal,
      filters: LabourFilters,
      page: number,
      pageSize: number,
    ): Promise<LabourPage> {
      const lower = (values?: string[]) => values && new Set(values.map((v) => v.toLowerCase()));
      const [fieldUuids, farmUuids] = [lower(filters.fieldUuids), lower(filters.farmUuids)];
      const chunk = Math.min(Math.max(page * pageSize, 10), 500);
      // within dates the total is the labours between them: every one is read
      const wanted = filters.dateFrom || filters.dateTo ? Number.POSITIVE_INFINITY : page * pageSize;
      const keepFarm = (farm: Farm) =>
        (!filters.farmIds || filters.farmIds.includes(farm.id)) &&
        (!farmUuids || farmUuids.has(farm.uuid.toLowerCase()));
      if (!filters.fieldIds && !fieldUuids && !filters.cropIds && (await repository.byFarm())) {
        const answered = await byFarm(principal, filters, keepFarm, { page, pageSize, wanted, chunk });
        if (answered) return answered;
      }
      // a client naming its fields reads those only, not every field it reaches
      const candidates = filters.fieldIds
        ? await fields.readableOf(principal, filters.fieldIds)
        : await fields.readable(principal);
      const selected = candidates.filter(
        ({ field, farm }) =>
          keepFarm(farm) &&
          (!filters.fieldIds || filters.fieldIds.includes(field.id)) &&
          (!fieldUuids || fieldUuids.has(field.uuid.toLowerCase())),
      );
      const tallies = await repository.tallies(
        selected.map(({ field }) => ({ fieldId: field.id, yeargroup: filters.yeargroup })),
      );
      const counted = selected.every(
        ({ field }) => tallies.get(refKey(field.id, filters.yeargroup))?.tally !== undefined,
      );
      if (counted && !filters.cropIds) {
        // the index in the list's order: a page reads about its labours (the ones before it too);
        // the total comes from the campaigns' tallies, or, within dates, from the labours between them
        const sources = selected.map((scope) => ({
          source: scope,
          labours: repository.laboursByDate(scope.field.id, filters.yeargroup, {
            dateFrom: filters.dateFrom,
            dateTo: filters.dateTo,
            chunk,
          }),
        }));
        const found = await firstKept(
          mergedByDate(sources),
          async (batch) =>
            batch
              .filter(({ labour }) => matches(labour, filters, undefined))
              .map(({ labour, source }) => ({ labour, field: source.field, farm: source.farm })),
          wanted,
          chunk,
        );
        const total = Number.isFinite(wanted)
          ? selected.reduce(
              (sum, { field }) => sum + tallied(tallies.get(refKey(field.id, filters.yeargroup))!.tally!, filters),
              0,
            )
          : found.length;
        const items = found.slice((page - 1) * pageSize, page * pageSize);
        return {
          views: await views(principal.user.id, items, undefined, tallies, LISTING),
          page,
          totalPages: Math.ceil(total / pageSize),
        };
      }
      // a crop filter (the crop is the labour's rotation's), or a campaign not counted yet: every labour
      const perField = await mapLimit(selected, 8, async ({ field, farm }) =>
        (await repository.laboursOf(field.id, filters.yeargroup)).map((labour) => ({ labour, field, farm })),
      );
      let entries = perField.flat();
      // crop filters read the crop of each labour's rotation
      const cropOf = filters.cropIds ? await rotationsOf(entries) : undefined;
      entries = entries.filter((e) =>
        matches(e.labour, filters, cropOf?.get(refKey(e.field.id, e.labour.rotationUuid ?? ''))?.cropId),
      );
      entries.sort((a, b) => byDate(a.labour, b.labour));
      const { items, totalPages } = paginate(entries, page, pageSize);
      return { views: await views(principal.user.id, items, cropOf, undefined, LISTING), page, totalPages };
    },

    /**
     * POST /activities/labour: one labour. A client uuid names a labour within its field: sent again
     * to that field with the same body it answers the labour it made (idempotent), with another body
     * it conflicts (409 code 10), as does the uuid of a labour the caller can see in another field;
     * a labour of that uuid the caller cannot see does not exist for it (it creates its own).
     */
    async createLabour(principal: Principal, write: LabourCreate): Promise<Labour> {
      const { field } = await fieldOf(principal, write);
      const sent = fingerprint(write);
      const again = async (): Promise<Labour | undefined> => {
        if (!write.uuid) return undefined;
        const homes = await repository.homes(write.uuid);
        const here = homes.find((h) => h.fieldId === field.id);
        if (here) {
          const existing = await repository.labour(field.id, here.yeargroup, write.uuid);
          if (existing?.createdWith && existing.createdWith !== sent)
            throw labourTaken(write.uuid, 'it was created with another body; send that body, or a new uuid');
          if (existing) return existing;
        }
        const elsewhere = homes.filter((h) => h.fieldId !== field.id).map((h) => h.fieldId);
        if (elsewhere.length && (await fields.readsAny(principal, elsewhere)))
          throw labourTaken(write.uuid, 'a labour of this uuid is in another field');
        return undefined;
      };
      const repeated = await again();
      if (repeated) return repeated;
      return retryLostRace(async () => {
        const change = await newLabour(principal.user.id, field, write);
        change.labour.createdWith = sent;
        try {
          await repository.save(change);
          return change.labour;
        } catch (error) {
          // the same client uuid sent twice at once: the other request made it
          if (error instanceof Conflict && !(error instanceof LostRace))
            return (await again()) ?? Promise.reject(error);
          throw error;
        }
      });
    },

    /** PATCH /activities/labour/<uuid>: only the members sent change; `inputs` is the complete final list. */
    async patchLabour(principal: Principal, uuid: string, write: LabourWrite): Promise<Labour> {
      return retryLostRace(async () => {
        const { labour: current, field } = await locate(principal, uuid, 'write');
        if (write.typeId !== undefined && write.typeId !== current.typeId)
          throw invalid(LABOUR_CODES.WRONG_TYPE_FIELDS, 'labour_type_id cannot change');
        if (write.yeargroup !== undefined && write.yeargroup !== current.yeargroup) {
          throw invalid(LABOUR_CODES.INVALID_ROTATION, 'yeargroup cannot change: a labour belongs to one campaign');
        }
        if (
          (write.fieldId !== undefined && write.fieldId !== field.id) ||
          (write.fieldUuid && write.fieldUuid.toLowerCase() !== field.uuid.toLowerCase())
        ) {
          throw invalid(LABOUR_CODES.INVALID_FIELD, 'field_id cannot change: a labour belongs to one field');
        }
        checkTypeFields(current.typeId, write);
        // any status may change to any other: a mis-marked labour is corrected, keeping its uuid (docs/decisions.md)
        if (write.rotationUuid !== undefined) await checkRotation(field, current.yeargroup, write.rotationUuid);
        if (write.surface !== undefined) await checkSurface(field, current.yeargroup, write.surface);
        if (write.mapId !== undefined) await checkMap(field, write.mapId);
        const resolved =
          write.inputs !== undefined
            ? await resolveInputs(principal.user.id, write.inputs, current.inputs)
            : { lines: current.inputs, writes: [] };
        // an input left out of the list takes its cost with it; costs sent must name listed inputs
        const costs = normalizeCosts(write.costs, withoutStrayCosts(current.costs, resolved.lines));
        checkInputCosts(costs, resolved.lines);
        const campaign =
          write.biennial !== undefined ? await repository.campaignOf(field.id, current.yeargroup) : undefined;
        const next: Labour = {
          ...current,
          // an item written before labours named their field names it from now on
          fieldUuid: field.uuid,
          fieldName: field.name,
          status: write.status ?? current.status,
          date: write.date ?? current.date,
          rotationUuid:
            write.rotationUuid !== undefined ? (write.rotationUuid?.toLowerCase() ?? null) : current.rotationUuid,
          mapId: write.mapId !== undefined ? write.mapId : current.mapId,
          surface: write.surface ?? current.surface,
          observations: write.observations ?? current.observations,
          attachments: write.attachments ?? current.attachments,
          stock: write.stock ?? current.stock,
          resources: write.resources ?? current.resources,
          staff: write.staff ?? current.staff,
          costs,
          inputs: resolved.lines,
          details: { ...current.details, ...(write.details ?? {}) },
          updatedAt: now().toISOString(),
          version: current.version + 1,
        };
        await repository.save({
          labour: next,
          previousVersion: current.version,
          previousStatus: current.status,
          inputs: resolved.writes,
          ...(campaign ? { biennial: { campaign, value: write.biennial } } : {}),
        });
        return next;
      });
    },

    /** DELETE /activities/labour/<uuid>. */
    async deleteLabour(principal: Principal, uuid: string): Promise<void> {
      const { labour } = await locate(principal, uuid, 'write');
      await repository.remove(labour, labourNotFound(uuid));
    },

    /** A planned application of a map (spec 2, Maps `create_application`), written in the map's own transaction. */
    plannedApplicationOfMap(
      userId: number,
      field: Field,
      mapId: number,
      yeargroup: number,
      date: string,
    ): Promise<LabourSave> {
      return newLabour(
        userId,
        field,
        { typeId: LABOUR_TYPE.APPLICATION, status: STATUS.PLANNED, yeargroup, date, mapId, fieldId: field.id },
        { mapWrittenWith: true },
      );
    },
  };
}
