// The platform core the spec assumes but does not show: users, workspaces (spaces),
// supervisions, farms, fields and shares. Stored items use these names; the wire names of each
// area are mapped in its schemas.
import { as, type EntityOf, embedded, entity, mapped, nullable, num, numOr, str } from '../db/entity';
import { FARM_DELETING_FIELDS } from '../db/revision';
import { packWkt, unpackWkt } from '../geo/packed';

/** How a farm or field is shared with a user (what each grants: lib/authz/access.ts). */
export type ShareLevel = 'read' | 'edit' | 'add' | 'admin';
/** How a supervisor reaches the users it supervises. */
export type SupervisionLevel = 'read' | 'edit';

export const LOCALES = ['es', 'en', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];

export const Supervision = entity('supervision', {
  supervisorId: num('supervisor_id'),
  userId: num('user_id'),
  level: as<SupervisionLevel>('permission'),
});
export type Supervision = EntityOf<typeof Supervision>;

export interface FieldShape {
  /** WKT POLYGON, EPSG 4326. */
  polygon: string;
  /** WKT POINT, EPSG 4326. */
  centroid: string;
  areaHa: number;
  /** WKT POLYGON of the enclosing rectangle, EPSG 4326. */
  bbox: string;
  /** [minX, minY, maxX, maxY]. */
  bounds: [number, number, number, number];
  /** YYYY-MM-DD. */
  startDate: string;
}

export type ShareTarget = { kind: 'farm'; farmId: number } | { kind: 'field'; fieldId: number; farmId: number };

export interface Share {
  userId: number;
  target: ShareTarget;
  level: ShareLevel;
}

// --- item mapping -------------------------------------------------------------------------

type Item = Record<string, unknown>;

export const User = entity('user', {
  id: num('id'),
  uid: str('uid'),
  userName: str('user_name'),
  locale: as<Locale>('locale'),
  /** Plan features (claim names, or '*'). */
  features: as<string[]>('features', ['*']),
  /** Hectares the user may own in fields; null = no limit. */
  hectareQuota: nullable(num('hectare_quota')),
  hectaresUsed: numOr('hectares_used', 0),
  spaceId: num('space_id'),
  createdAt: str('created_at'),
});
export type User = EntityOf<typeof User>;

export const Space = entity('space', {
  id: num('id'),
  adminUserId: num('admin_user_id'),
  /** Hectares all members together may own; the administrator's quota. null = no limit. */
  hectareQuota: nullable(num('hectare_quota')),
  hectaresUsed: numOr('hectares_used', 0),
});
export type Space = EntityOf<typeof Space>;

export const Farm = entity('farm', {
  id: num('id'),
  uuid: str('uuid'),
  name: str('name'),
  ownerId: num('owner_id'),
  createdAt: str('created_at'),
  /**
   * Its fields deleted whose clean-up (FIELD_DELETED.V1) has not ended: what hangs from them is still
   * in the farm's indexes, and a listing by farm leaves it out (lib/authz/by-farm.ts). A number set,
   * added to in the deletion's transaction and taken from when the clean-up ends; bookkeeping of
   * the item, not part of the farm (no revision, no change in the feed: docs/data-model.md).
   */
  deletingFieldIds: mapped(
    FARM_DELETING_FIELDS,
    (v) => [...((v as Iterable<unknown> | undefined) ?? [])].map(Number).sort((a, b) => a - b),
    (v: number[]) => (v.length ? new Set(v) : undefined),
  ),
});
export type Farm = EntityOf<typeof Farm>;

export const Field = entity('field', {
  id: num('id'),
  uuid: str('uuid'),
  farmId: num('farm_id'),
  ownerId: num('owner_id'),
  name: str('name'),
  country: nullable(str('country')),
  /** The shape drawn when the field was created (its attributes are the field item's own). */
  shape: embedded(
    (item) => shapeFromItem(item),
    (shape: FieldShape) => shapeToItem(shape),
  ),
  /** Campaigns that have a season shape of their own (spec 2, Season shapes). */
  shapeCampaigns: mapped(
    'shape_campaigns',
    (v) => ((v as number[] | undefined) ?? []).map(Number).sort((a, b) => a - b),
    (v: number[]) => v,
  ),
  /** Hectares counted against quotas: the largest of the field's shapes (older items: the shape's area). */
  hectaresCharged: mapped(
    'hectares_charged',
    (v, item) => Number(v ?? item.area_ha),
    (v: number) => v,
  ),
  createdAt: str('created_at'),
  createdBy: num('created_by'),
});
export type Field = EntityOf<typeof Field>;

/** What a record's view shows of its field: its id, uuid and name (none of them ever changes). */
export type FieldRef = Pick<Field, 'id' | 'uuid' | 'name'>;

/**
 * The field a record's item names (its labours and rotations keep their field's uuid and name, so
 * that a list by farm shows them without reading the field); undefined for an item written before.
 */
export function fieldNamedBy(record: {
  fieldId: number;
  fieldUuid: string | null;
  fieldName: string | null;
}): FieldRef | undefined {
  return record.fieldUuid !== null && record.fieldName !== null
    ? { id: record.fieldId, uuid: record.fieldUuid, name: record.fieldName }
    : undefined;
}

/** Shape items of season shapes (one per field and campaign). */
export const shapeFromItem = (item: Item): FieldShape => ({
  polygon: item.polygon_packed instanceof Uint8Array ? unpackWkt(item.polygon_packed) : String(item.polygon),
  centroid: String(item.centroid),
  areaHa: Number(item.area_ha),
  bbox: String(item.bbox),
  bounds: item.bounds as [number, number, number, number],
  startDate: String(item.start_date),
});

/** A polygon of more WKT than this is kept packed (lib/geo/packed.ts; docs/data-model.md). */
export const POLYGON_INLINE_MAX_CHARS = 64 * 1024;

export const shapeToItem = (shape: FieldShape): Item => ({
  ...(shape.polygon.length > POLYGON_INLINE_MAX_CHARS
    ? { polygon_packed: packWkt(shape.polygon) }
    : { polygon: shape.polygon }),
  centroid: shape.centroid,
  area_ha: shape.areaHa,
  bbox: shape.bbox,
  bounds: shape.bounds,
  start_date: shape.startDate,
});
