// Paddocks (spec 1, Livestock): spatial subdivisions of a field that hold herds. A paddock lies
// inside its field's current shape; its name is unique in the field; it keeps a count of the
// herds located in it, and cannot be deleted while that count is above zero.
import { randomUUID } from 'node:crypto';
import { keys, normalizeName } from '../db/keys';
import { LostRace } from '../db/retry';
import { EXISTS, getItem, nextId, NOT_EXISTS, queryAll, transact, tx, type TxOp } from '../db/table';
import { Conflict, Invalid, NotFound } from '../errors';
import { GeometryError, areaHectares, parseGeometry, readWkt, toWkt } from '../geo/wkt';
import type { Principal } from '../auth/principal';
import type { Field } from '../platform/model';
import { shapeFor } from '../fields/current-shape';
import { readableFields } from '../fields/list';
import { fieldFor, fieldOfRefs, readableElsewhere } from './access';
import { Paddock } from './model';
import { LIVESTOCK_CODES } from './codes';
import { characters } from '../util/text';

const paddockNotFound = (uuid: string) => new NotFound(`paddock ${uuid} not found`, { code: LIVESTOCK_CODES.PADDOCK_NOT_FOUND });
const nameTaken = (name: string) => new Conflict(`a paddock named '${name}' already exists in the field`, { code: LIVESTOCK_CODES.NAME_TAKEN });

/** The paddock polygon, checked to lie inside the field's current shape. */
async function paddockShape(field: Field, wkt: string): Promise<{ shape: string; areaHa: number }> {
  let geometry;
  try {
    geometry = parseGeometry(wkt, ['Polygon'], PADDOCK_MAX_VERTICES);
  } catch (error) {
    if (error instanceof GeometryError) throw new Invalid(error.message, { code: LIVESTOCK_CODES.INVALID_GEOMETRY });
    throw error;
  }
  const { shape } = await shapeFor(field);
  if (!readWkt(shape.polygon).covers(geometry)) {
    throw new Invalid('the paddock must lie inside the field', { code: LIVESTOCK_CODES.SHAPE_OUTSIDE_FIELD });
  }
  return { shape: toWkt(geometry), areaHa: areaHectares(geometry) };
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || characters(trimmed) > 100) throw new Invalid('the paddock name must have 1 to 100 characters', { code: LIVESTOCK_CODES.INVALID_PARAMETERS });
  return trimmed;
}

/** Vertices of a paddock polygon (docs/decisions.md, Livestock). */
export const PADDOCK_MAX_VERTICES = 2000;

export async function paddocksOfField(fieldId: number): Promise<Paddock[]> {
  const { pk, skPrefix } = keys.paddocksPrefix(fieldId);
  return (await queryAll({ pk, skPrefix })).map(Paddock.fromItem).sort((a, b) => a.id - b.id);
}

/** A paddock and its field, for a caller who can read the field (404 otherwise). */
export async function locatePaddock(principal: Principal, uuid: string, action: 'read' | 'write' = 'read') {
  const { field } = await fieldOfRefs(principal, keys.paddockRefs(uuid), action, () => paddockNotFound(uuid));
  const item = await getItem(keys.paddock(field.id, uuid));
  if (!item) throw paddockNotFound(uuid);
  return { paddock: Paddock.fromItem(item), field };
}

export async function listPaddocks(principal: Principal, filter: { fieldId?: number; uuid?: string }): Promise<Paddock[]> {
  if (filter.uuid) {
    const { paddock } = await locatePaddock(principal, filter.uuid);
    return filter.fieldId === undefined || paddock.fieldId === filter.fieldId ? [paddock] : [];
  }
  if (filter.fieldId !== undefined) {
    const { field } = await fieldFor(principal, filter.fieldId, 'read');
    return paddocksOfField(field.id);
  }
  const fields = await readableFields(principal);
  return (await Promise.all(fields.map((f) => paddocksOfField(f.field.id)))).flat();
}

export interface CreatePaddockInput {
  fieldId: number;
  shape: string;
  /** ISO date-time; its date becomes creation_ts. */
  date: string;
  name: string;
  uuid?: string;
}

export async function createPaddock(principal: Principal, input: CreatePaddockInput): Promise<Paddock> {
  const { field } = await fieldFor(principal, input.fieldId, 'write');
  if (input.uuid) {
    // a uuid names one paddock per field: sent again to this field, it is the paddock made the
    // first time; a paddock of this uuid the caller can see in another field conflicts
    if (await getItem(keys.paddockRef(input.uuid, field.id))) return (await locatePaddock(principal, input.uuid)).paddock;
    if (await readableElsewhere(principal, keys.paddockRefs(input.uuid), field.id)) {
      throw new Conflict(`paddock ${input.uuid} exists in another field`, { code: LIVESTOCK_CODES.INVALID_PARAMETERS });
    }
  }
  const name = checkName(input.name);
  const { shape, areaHa } = await paddockShape(field, input.shape);
  const paddock: Paddock = {
    id: await nextId('paddock'),
    uuid: (input.uuid ?? randomUUID()).toLowerCase(),
    fieldId: field.id,
    name,
    creationDate: new Date(input.date).toISOString().slice(0, 10),
    shape,
    areaHa,
    herdCount: 0,
    version: 1,
  };
  try {
    await transact([
      tx.put({ ...keys.paddock(field.id, paddock.uuid), ...Paddock.toItem(paddock) }, NOT_EXISTS),
      tx.put({ ...keys.paddockRef(paddock.uuid, field.id), kind: 'paddock_ref', field_id: field.id }, NOT_EXISTS, () =>
        new LostRace(`paddock ${paddock.uuid} already exists`),
      ),
      tx.put({ ...keys.paddockName(field.id, name), kind: 'paddock_name', paddock_uuid: paddock.uuid }, NOT_EXISTS, () => nameTaken(name)),
      tx.check(keys.field(field.id), EXISTS, () => new NotFound(`field ${field.id} not found`, { code: LIVESTOCK_CODES.FIELD_NOT_FOUND })),
    ]);
  } catch (error) {
    // The same client uuid sent twice at once: the other request created it.
    if (input.uuid && error instanceof LostRace) return (await locatePaddock(principal, paddock.uuid)).paddock;
    throw error;
  }
  return paddock;
}

export async function updatePaddock(principal: Principal, uuid: string, changes: { name?: string; shape?: string }): Promise<Paddock> {
  if (changes.name === undefined && changes.shape === undefined) {
    throw new Invalid('send name and/or shape', { code: LIVESTOCK_CODES.INVALID_PARAMETERS });
  }
  const { paddock, field } = await locatePaddock(principal, uuid, 'write');
  const next: Paddock = { ...paddock, version: paddock.version + 1 };
  const ops: TxOp[] = [];
  if (changes.name !== undefined) {
    next.name = checkName(changes.name);
    if (normalizeName(next.name) !== normalizeName(paddock.name)) {
      ops.push(
        tx.put({ ...keys.paddockName(field.id, next.name), kind: 'paddock_name', paddock_uuid: uuid }, NOT_EXISTS, () => nameTaken(next.name)),
        tx.delete(keys.paddockName(field.id, paddock.name)),
      );
    }
  }
  if (changes.shape !== undefined) Object.assign(next, await paddockShape(field, changes.shape));
  ops.push(
    tx.update(
      keys.paddock(field.id, uuid),
      {
        expression: 'SET #name = :name, shape = :shape, area_ha = :area, version = :next',
        condition: 'version = :version',
        names: { '#name': 'name' },
        values: { ':name': next.name, ':shape': next.shape, ':area': next.areaHa, ':next': next.version, ':version': paddock.version },
      },
      () => new LostRace('the paddock changed meanwhile; try again', { code: LIVESTOCK_CODES.STALE }),
    ),
  );
  await transact(ops);
  return { ...next, herdCount: paddock.herdCount };
}

/** Refused while herds are located in the paddock: move or delete them first. */
export async function deletePaddock(principal: Principal, uuid: string): Promise<void> {
  const { paddock, field } = await locatePaddock(principal, uuid, 'write');
  const notEmpty = () =>
    new Conflict('the paddock holds herds; move or delete them before deleting it', { code: LIVESTOCK_CODES.PADDOCK_NOT_EMPTY });
  if (paddock.herdCount > 0) throw notEmpty();
  await transact([
    tx.delete(keys.paddock(field.id, uuid), 'herd_count = :zero', notEmpty, { ':zero': 0 }),
    tx.delete(keys.paddockRef(uuid, field.id)),
    tx.delete(keys.paddockName(field.id, paddock.name)),
  ]);
}
