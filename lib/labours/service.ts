// Labours (spec 3): list with the spec's filters and paging; create, change and delete (not shown
// by the spec; the contract is in docs/decisions.md, "Labours"). A labour lives in its field's
// partition under its campaign; one transaction writes it with the personal inputs its list
// creates or renames and its campaign's `biennial`.
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import { fieldFor, type FieldInScope } from '../authz/guard';
import { keys } from '../db/keys';
import { LostRace, retryLostRace } from '../db/retry';
import { batchGet, EXISTS, getItem, itemKey, NOT_EXISTS, queryAll, transact, tx, type TxOp } from '../db/table';
import { Conflict, Forbidden, Invalid, NotFound } from '../errors';
import { shapeFor } from '../fields/current-shape';
import { biennialChange, campaignOf, Campaign } from '../fields/campaigns';
import { getField, getFieldByUuid } from '../fields/repository';
import { readableFields } from '../fields/list';
import { cropById } from '../crops/service';
import { masterInputByUuid } from '../inputs/catalogue';
import { InputRuleBroken, planLabourInputs, type InputWrite } from '../inputs/service';
import { dynamoInputRepository, inputWriteOps, personalInputFromItem } from '../inputs/repository';
import { mapLimit } from '../util/map-limit';
import type { Farm, Field } from '../platform/model';
import { LABOUR_CODES } from './codes';
import {
  byDate,
  canMove,
  foreignTypeFields,
  LABOUR_INPUTS_MAX,
  LABOUR_TYPE,
  Labour,
  matches,
  paginate,
  STATUS,
  takesInputs,
  type Costs,
  type LabourFilters,
  type LabourInput,
  type LabourTypeId,
  type Status,
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

export interface LabourView {
  labour: Labour;
  field: Field;
  farm: Farm;
  biennial: boolean;
  rotation: { uuid: string; cropId: number; cropName: string | null } | null;
  /** Current name of each input (by uuid) and whether it was deleted. */
  inputs: Map<string, { name: string; deleted: boolean }>;
}

const invalid = (code: number, message: string) => new Invalid(message, { code });
const labourNotFound = (uuid: string) => () => new NotFound(`labour ${uuid} not found`, { code: LABOUR_CODES.NOT_FOUND });
const notAllowed = () => new Forbidden('you cannot change the labours of this field', { code: LABOUR_CODES.NOT_ALLOWED });
const fieldNotFound = () => new NotFound('field not found', { code: LABOUR_CODES.INVALID_FIELD });

// --- reading ---------------------------------------------------------------------------------

/** The labour of a uuid, in a field the caller reaches for `action` (404 when it cannot read it). */
async function locate(principal: Principal, uuid: string, action: 'read' | 'write'): Promise<FieldInScope & { labour: Labour }> {
  const refuse = labourNotFound(uuid);
  const ref = await getItem(keys.labourRef(uuid));
  if (!ref) throw refuse();
  const scope = await fieldFor(principal, Number(ref.field_id), action, { notFound: refuse, forbidden: notAllowed });
  const item = await getItem(keys.labour(scope.field.id, Number(ref.yeargroup), uuid));
  if (!item) throw refuse();
  return { ...scope, labour: Labour.fromItem(item) };
}

/** Labours by uuid that the caller can read (others are left out), with their fields and farms. */
export async function readableLabours(principal: Principal, uuids: string[]): Promise<Array<FieldInScope & { labour: Labour }>> {
  const found = await mapLimit(uuids, 8, (uuid) => locate(principal, uuid, 'read').catch((error) => (error instanceof NotFound ? undefined : Promise.reject(error))));
  return found.filter((entry): entry is FieldInScope & { labour: Labour } => Boolean(entry));
}

/** Names of the rotations' crops and the inputs of these labours, for their wire form. */
async function views(userId: number, entries: Array<{ labour: Labour; field: Field; farm: Farm }>): Promise<LabourView[]> {
  const rotationKeys = entries.filter((e) => e.labour.rotationUuid).map((e) => keys.rotation(e.field.id, e.labour.rotationUuid!));
  const campaignKeys = entries.map((e) => keys.campaign(e.field.id, e.labour.yeargroup));
  const personalKeys = entries.flatMap((e) => e.labour.inputs.filter((i) => i.ownerId !== null).map((i) => keys.userInput(i.ownerId!, i.inputUuid)));
  const found = await batchGet([...rotationKeys, ...campaignKeys, ...personalKeys]);
  const crops = new Map<number, string | null>();
  const cropName = async (cropId: number) => {
    if (!crops.has(cropId)) crops.set(cropId, (await cropById(userId, cropId))?.name ?? null);
    return crops.get(cropId)!;
  };
  const result: LabourView[] = [];
  for (const { labour, field, farm } of entries) {
    const rotationItem = labour.rotationUuid ? found.get(itemKey(keys.rotation(field.id, labour.rotationUuid))) : undefined;
    const campaignItem = found.get(itemKey(keys.campaign(field.id, labour.yeargroup)));
    const inputs = new Map<string, { name: string; deleted: boolean }>();
    for (const line of labour.inputs) {
      const master = masterInputByUuid(line.inputUuid);
      const item = line.ownerId !== null ? found.get(itemKey(keys.userInput(line.ownerId, line.inputUuid))) : undefined;
      const personal = item ? personalInputFromItem(item) : undefined;
      inputs.set(line.inputUuid, { name: master?.name ?? personal?.name ?? line.name, deleted: !master && (!personal || personal.deleted) });
    }
    result.push({
      labour,
      field,
      farm,
      biennial: campaignItem ? Campaign.fromItem(campaignItem).biennial : false,
      rotation: rotationItem
        ? { uuid: labour.rotationUuid!, cropId: Number(rotationItem.crop_id), cropName: await cropName(Number(rotationItem.crop_id)) }
        : null,
      inputs,
    });
  }
  return result;
}

export async function getLabour(principal: Principal, uuid: string): Promise<LabourView> {
  const { labour, field, farm } = await locate(principal, uuid, 'read');
  return (await views(principal.user.id, [{ labour, field, farm }]))[0]!;
}

export interface LabourPage {
  views: LabourView[];
  page: number;
  totalPages: number;
}

/** GET /activities/labour: the labours of the fields the caller reads, filtered, by date, one page. */
export async function listLabours(principal: Principal, filters: LabourFilters, page: number, pageSize: number): Promise<LabourPage> {
  const lower = (values?: string[]) => values && new Set(values.map((v) => v.toLowerCase()));
  const [fieldUuids, farmUuids] = [lower(filters.fieldUuids), lower(filters.farmUuids)];
  const fields = (await readableFields(principal)).filter(
    ({ field, farm }) =>
      (!filters.farmIds || filters.farmIds.includes(farm.id)) &&
      (!filters.fieldIds || filters.fieldIds.includes(field.id)) &&
      (!fieldUuids || fieldUuids.has(field.uuid.toLowerCase())) &&
      (!farmUuids || farmUuids.has(farm.uuid.toLowerCase())),
  );
  const perField = await mapLimit(fields, 8, async ({ field, farm }) =>
    (await queryAll(keys.laboursOfCampaign(field.id, filters.yeargroup))).map((item) => ({ labour: Labour.fromItem(item), field, farm })),
  );
  let entries = perField.flat();
  // crop filters read the crop of each labour's rotation
  let cropOf = new Map<string, number>();
  if (filters.cropIds) {
    const rotationKeys = entries.filter((e) => e.labour.rotationUuid).map((e) => keys.rotation(e.field.id, e.labour.rotationUuid!));
    const rotations = await batchGet(rotationKeys);
    cropOf = new Map([...rotations.values()].map((r) => [`${r.field_id}|${String(r.rotation_uuid)}`, Number(r.crop_id)]));
  }
  entries = entries.filter((e) => matches(e.labour, filters, cropOf.get(`${e.field.id}|${e.labour.rotationUuid}`)));
  entries.sort((a, b) => byDate(a.labour, b.labour));
  const { items, totalPages } = paginate(entries, page, pageSize);
  return { views: await views(principal.user.id, items), page, totalPages };
}

// --- writing ---------------------------------------------------------------------------------

function checkTypeFields(typeId: LabourTypeId, write: LabourWrite): void {
  const sent = [...Object.keys(write.details ?? {}), ...(write.inputs !== undefined ? ['inputs'] : []), ...(write.mapId !== undefined ? ['map_id'] : [])];
  const foreign = foreignTypeFields(typeId, sent);
  if (foreign.length) throw invalid(LABOUR_CODES.WRONG_TYPE_FIELDS, `labour type ${typeId} does not take ${foreign.join(', ')}`);
  if (write.costs?.seed && typeId !== LABOUR_TYPE.SOWING) throw invalid(LABOUR_CODES.WRONG_TYPE_FIELDS, 'costs.seed is for sowings (labour type 3)');
  if (write.costs?.inputs && Object.keys(write.costs.inputs).length && !takesInputs(typeId)) {
    throw invalid(LABOUR_CODES.WRONG_TYPE_FIELDS, `labour type ${typeId} has no inputs to cost`);
  }
}

/** A labour's rotation belongs to its field and campaign. */
async function checkRotation(field: Field, yeargroup: number, rotationUuid: string | null | undefined): Promise<void> {
  if (!rotationUuid) return;
  const item = await getItem(keys.rotation(field.id, rotationUuid));
  if (!item) throw invalid(LABOUR_CODES.INVALID_ROTATION, `rotation ${rotationUuid} is not a rotation of field ${field.id}`);
  if (Number(item.yeargroup) !== yeargroup) {
    throw invalid(LABOUR_CODES.INVALID_ROTATION, `rotation ${rotationUuid} belongs to the campaign ${String(item.yeargroup)}, not ${yeargroup}`);
  }
}

async function fieldArea(field: Field, yeargroup: number): Promise<number> {
  return (await shapeFor(field, yeargroup)).shape.areaHa;
}

async function checkSurface(field: Field, yeargroup: number, surface: number): Promise<void> {
  const area = await fieldArea(field, yeargroup);
  if (surface > area * AREA_TOLERANCE) {
    throw invalid(LABOUR_CODES.SURFACE_EXCEEDS_FIELD, `surface (${surface} ha) exceeds the field's ${area.toFixed(2)} ha`);
  }
}

/** A map referenced by an application is a map of the labour's field. */
async function checkMap(field: Field, mapId: number | null | undefined): Promise<void> {
  if (mapId === null || mapId === undefined) return;
  const ref = await getItem(keys.mapRef(mapId));
  if (!ref || Number(ref.field_id) !== field.id) throw invalid(LABOUR_CODES.INVALID_MAP, `map ${mapId} is not a map of field ${field.id}`);
}

/** The complete list of a labour's inputs, resolved by the spec's rules, and the input writes it needs. */
async function resolveInputs(userId: number, items: LabourInputItem[]): Promise<{ lines: LabourInput[]; writes: InputWrite[] }> {
  if (items.length > LABOUR_INPUTS_MAX) throw invalid(LABOUR_CODES.INVALID_INPUTS, `at most ${LABOUR_INPUTS_MAX} inputs in a labour`);
  const personal = await dynamoInputRepository.personalInputs(userId);
  const ownUuids = new Set(personal.map((p) => p.uuid));
  const others = [...new Set(items.map((i) => i.uuid?.toLowerCase()).filter((u): u is string => Boolean(u) && !ownUuids.has(u!) && !masterInputByUuid(u!)))];
  const refs = await batchGet(others.map((uuid) => keys.inputRef(uuid)));
  const holders = new Map(others.flatMap((uuid) => {
    const ref = refs.get(itemKey(keys.inputRef(uuid)));
    return ref ? [[uuid, Number(ref.owner_id)] as const] : [];
  }));
  try {
    const plan = await planLabourInputs(userId, items, personal, holders, () => dynamoInputRepository.newId(), new Date());
    const lines = plan.resolved.map(({ input, personal: own }, index): LabourInput => {
      const item = items[index]!;
      return {
        labourInputUuid: randomUUID(),
        inputUuid: input.uuid,
        inputId: input.id,
        ownerId: own ? userId : null,
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

function checkInputCosts(costs: Costs, lines: LabourInput[]): void {
  const uuids = new Set(lines.map((l) => l.inputUuid));
  const stray = Object.keys(costs.inputs).filter((uuid) => !uuids.has(uuid.toLowerCase()));
  if (stray.length) throw invalid(LABOUR_CODES.INVALID_INPUTS, `costs.inputs names inputs the labour does not list: ${stray.join(', ')}`);
}

const normalizeCosts = (costs: Partial<Costs> | undefined, base: Costs = { labour: null, inputs: {}, seed: null }): Costs => ({
  labour: costs?.labour !== undefined ? costs.labour : base.labour,
  inputs: costs?.inputs !== undefined ? Object.fromEntries(Object.entries(costs.inputs).map(([k, v]) => [k.toLowerCase(), v])) : base.inputs,
  seed: costs?.seed !== undefined ? costs.seed : base.seed,
});

const labourItem = (labour: Labour) => ({ ...keys.labour(labour.fieldId, labour.yeargroup, labour.uuid), ...Labour.toItem(labour) });
const refItem = (labour: Labour) => ({ ...keys.labourRef(labour.uuid), kind: 'labour_ref', field_id: labour.fieldId, yeargroup: labour.yeargroup });

async function fieldOf(principal: Principal, write: LabourWrite): Promise<FieldInScope> {
  if (write.fieldId === undefined && !write.fieldUuid) throw invalid(LABOUR_CODES.INVALID_FIELD, 'field_id or field_uuid is required');
  const field = write.fieldId !== undefined ? await getField(write.fieldId) : await getFieldByUuid(write.fieldUuid!);
  if (field && write.fieldId !== undefined && write.fieldUuid && field.uuid.toLowerCase() !== write.fieldUuid.toLowerCase()) {
    throw invalid(LABOUR_CODES.INVALID_FIELD, 'field_id and field_uuid name different fields');
  }
  return fieldFor(principal, field, 'write', { notFound: fieldNotFound, forbidden: notAllowed });
}

/** The labour to write for a create, and the transaction items that go with it. */
export async function newLabour(
  userId: number,
  { field }: { field: Field },
  write: LabourWrite & { typeId: LabourTypeId; status: Status; yeargroup: number; date: string },
  options: { mapWrittenWith?: boolean } = {},
): Promise<{ labour: Labour; ops: TxOp[] }> {
  checkTypeFields(write.typeId, write);
  const campaign = await campaignOf(field.id, write.yeargroup, write.biennial);
  await checkRotation(field, write.yeargroup, write.rotationUuid);
  const surface = write.surface ?? Math.round((await fieldArea(field, write.yeargroup)) * 10000) / 10000;
  if (write.surface !== undefined) await checkSurface(field, write.yeargroup, write.surface);
  if (!options.mapWrittenWith) await checkMap(field, write.mapId);
  const { lines, writes } = await resolveInputs(userId, write.inputs ?? []);
  const costs = normalizeCosts(write.costs);
  checkInputCosts(costs, lines);
  const now = new Date().toISOString();
  const labour: Labour = {
    uuid: (write.uuid ?? randomUUID()).toLowerCase(),
    typeId: write.typeId,
    status: write.status,
    yeargroup: write.yeargroup,
    date: write.date,
    fieldId: field.id,
    farmId: field.farmId,
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
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const taken = () => new Conflict(`labour ${labour.uuid} already exists`, { code: LABOUR_CODES.UUID_IN_USE });
  return {
    labour,
    ops: [
      tx.put(labourItem(labour), NOT_EXISTS, taken),
      tx.put(refItem(labour), NOT_EXISTS, taken),
      ...inputWriteOps(writes),
      ...biennialChange(campaign, write.biennial),
    ],
  };
}

/** POST /activities/labour: one labour; a repeated client uuid answers the labour it made. */
export async function createLabour(principal: Principal, write: LabourWrite & { typeId: LabourTypeId; status: Status; yeargroup: number; date: string }): Promise<Labour> {
  const scope = await fieldOf(principal, write);
  const again = async (): Promise<Labour | undefined> => {
    if (!write.uuid) return undefined;
    const ref = await getItem(keys.labourRef(write.uuid));
    if (!ref) return undefined;
    const existing = await locate(principal, write.uuid, 'read').catch(() => undefined);
    if (!existing) throw new Conflict(`labour ${write.uuid} already exists`, { code: LABOUR_CODES.UUID_IN_USE });
    return existing.labour;
  };
  const repeated = await again();
  if (repeated) return repeated;
  return retryLostRace(async () => {
    const { labour, ops } = await newLabour(principal.user.id, scope, write);
    try {
      await transact(ops);
      return labour;
    } catch (error) {
      // the same client uuid sent twice at once: the other request made it
      if (error instanceof Conflict && !(error instanceof LostRace)) return (await again()) ?? Promise.reject(error);
      throw error;
    }
  });
}

/** PATCH /activities/labour/<uuid>: only the members sent change; `inputs` is the complete final list. */
export async function patchLabour(principal: Principal, uuid: string, write: LabourWrite): Promise<Labour> {
  return retryLostRace(async () => {
    const { labour: current, field } = await locate(principal, uuid, 'write');
    if (write.typeId !== undefined && write.typeId !== current.typeId) throw invalid(LABOUR_CODES.WRONG_TYPE_FIELDS, 'labour_type_id cannot change');
    if (write.yeargroup !== undefined && write.yeargroup !== current.yeargroup) {
      throw invalid(LABOUR_CODES.INVALID_ROTATION, 'yeargroup cannot change: a labour belongs to one campaign');
    }
    if ((write.fieldId !== undefined && write.fieldId !== field.id) || (write.fieldUuid && write.fieldUuid.toLowerCase() !== field.uuid.toLowerCase())) {
      throw invalid(LABOUR_CODES.INVALID_FIELD, 'field_id cannot change: a labour belongs to one field');
    }
    checkTypeFields(current.typeId, write);
    if (write.status !== undefined && !canMove(current.status, write.status)) {
      throw invalid(LABOUR_CODES.STATUS_TRANSITION, `a labour in status ${current.status} cannot move to ${write.status} (docs/decisions.md, Labours)`);
    }
    if (write.rotationUuid !== undefined) await checkRotation(field, current.yeargroup, write.rotationUuid);
    if (write.surface !== undefined) await checkSurface(field, current.yeargroup, write.surface);
    if (write.mapId !== undefined) await checkMap(field, write.mapId);
    const resolved = write.inputs !== undefined ? await resolveInputs(principal.user.id, write.inputs) : { lines: current.inputs, writes: [] };
    const costs = normalizeCosts(write.costs, current.costs);
    checkInputCosts(costs, resolved.lines);
    const campaign = write.biennial !== undefined ? await campaignOf(field.id, current.yeargroup) : undefined;
    const next: Labour = {
      ...current,
      status: write.status ?? current.status,
      date: write.date ?? current.date,
      rotationUuid: write.rotationUuid !== undefined ? (write.rotationUuid?.toLowerCase() ?? null) : current.rotationUuid,
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
      updatedAt: new Date().toISOString(),
      version: current.version + 1,
    };
    await transact([
      tx.put(labourItem(next), 'version = :v', () => new LostRace('labour changed meanwhile'), { ':v': current.version }),
      ...inputWriteOps(resolved.writes),
      ...(campaign ? biennialChange(campaign, write.biennial) : []),
    ]);
    return next;
  });
}

/** DELETE /activities/labour/<uuid>. */
export async function deleteLabour(principal: Principal, uuid: string): Promise<void> {
  const { labour } = await locate(principal, uuid, 'write');
  await transact([
    tx.delete(keys.labour(labour.fieldId, labour.yeargroup, labour.uuid), EXISTS, labourNotFound(uuid)),
    tx.delete(keys.labourRef(labour.uuid)),
  ]);
}

/** A planned application of a map (spec 2, Maps `create_application`), for the map's own transaction. */
export async function plannedApplicationOfMap(userId: number, field: Field, mapId: number, yeargroup: number, date: string): Promise<{ labour: Labour; ops: TxOp[] }> {
  return newLabour(userId, { field }, { typeId: LABOUR_TYPE.APPLICATION, status: STATUS.PLANNED, yeargroup, date, mapId, fieldId: field.id }, { mapWrittenWith: true });
}

export { views as labourViews };
