// The platform core the spec assumes but does not show: users, workspaces (spaces),
// supervisions, farms, fields and shares. Stored items use these names; the wire names of each
// area are mapped in its schemas.
import type { ShareLevel, SupervisionLevel } from '../authz/access';
import { packWkt, unpackWkt } from '../geo/packed';

export const LOCALES = ['es', 'en', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];

export interface User {
  id: number;
  uid: string;
  userName: string;
  locale: Locale;
  /** Plan features (claim names, or '*'). */
  features: string[];
  /** Hectares the user may own in fields; null = no limit. */
  hectareQuota: number | null;
  hectaresUsed: number;
  spaceId: number;
  createdAt: string;
}

export interface Space {
  id: number;
  adminUserId: number;
  /** Hectares all members together may own; the administrator's quota. null = no limit. */
  hectareQuota: number | null;
  hectaresUsed: number;
}

export interface Supervision {
  supervisorId: number;
  userId: number;
  level: SupervisionLevel;
}

export interface Farm {
  id: number;
  uuid: string;
  name: string;
  ownerId: number;
  createdAt: string;
}

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

export interface Field {
  id: number;
  uuid: string;
  farmId: number;
  ownerId: number;
  name: string;
  country: string | null;
  /** The shape drawn when the field was created. */
  shape: FieldShape;
  /** Campaigns that have a season shape of their own (spec 2, Season shapes). */
  shapeCampaigns: number[];
  /** Hectares counted against quotas: the largest of the field's shapes. */
  hectaresCharged: number;
  createdAt: string;
  createdBy: number;
}

export type ShareTarget = { kind: 'farm'; farmId: number } | { kind: 'field'; fieldId: number; farmId: number };

export interface Share {
  userId: number;
  target: ShareTarget;
  level: ShareLevel;
}

// --- item mapping -------------------------------------------------------------------------

type Item = Record<string, unknown>;

export const userFromItem = (item: Item): User => ({
  id: Number(item.id),
  uid: String(item.uid),
  userName: String(item.user_name),
  locale: item.locale as Locale,
  features: (item.features as string[] | undefined) ?? ['*'],
  hectareQuota: item.hectare_quota === null || item.hectare_quota === undefined ? null : Number(item.hectare_quota),
  hectaresUsed: Number(item.hectares_used ?? 0),
  spaceId: Number(item.space_id),
  createdAt: String(item.created_at),
});

export const userToItem = (user: User): Item => ({
  kind: 'user',
  id: user.id,
  uid: user.uid,
  user_name: user.userName,
  locale: user.locale,
  features: user.features,
  hectare_quota: user.hectareQuota,
  hectares_used: user.hectaresUsed,
  space_id: user.spaceId,
  created_at: user.createdAt,
});

export const spaceFromItem = (item: Item): Space => ({
  id: Number(item.id),
  adminUserId: Number(item.admin_user_id),
  hectareQuota: item.hectare_quota === null || item.hectare_quota === undefined ? null : Number(item.hectare_quota),
  hectaresUsed: Number(item.hectares_used ?? 0),
});

export const farmFromItem = (item: Item): Farm => ({
  id: Number(item.id),
  uuid: String(item.uuid),
  name: String(item.name),
  ownerId: Number(item.owner_id),
  createdAt: String(item.created_at),
});

export const farmToItem = (farm: Farm): Item => ({
  kind: 'farm',
  id: farm.id,
  uuid: farm.uuid,
  name: farm.name,
  owner_id: farm.ownerId,
  created_at: farm.createdAt,
});

export const fieldFromItem = (item: Item): Field => ({
  id: Number(item.id),
  uuid: String(item.uuid),
  farmId: Number(item.farm_id),
  ownerId: Number(item.owner_id),
  name: String(item.name),
  country: (item.country as string | null | undefined) ?? null,
  shape: shapeFromItem(item),
  shapeCampaigns: ((item.shape_campaigns as number[] | undefined) ?? []).map(Number).sort((a, b) => a - b),
  hectaresCharged: Number(item.hectares_charged ?? item.area_ha),
  createdAt: String(item.created_at),
  createdBy: Number(item.created_by),
});

export const fieldToItem = (field: Field): Item => ({
  kind: 'field',
  id: field.id,
  uuid: field.uuid,
  farm_id: field.farmId,
  owner_id: field.ownerId,
  name: field.name,
  country: field.country,
  ...shapeToItem(field.shape),
  shape_campaigns: field.shapeCampaigns,
  hectares_charged: field.hectaresCharged,
  created_at: field.createdAt,
  created_by: field.createdBy,
});

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
  ...(shape.polygon.length > POLYGON_INLINE_MAX_CHARS ? { polygon_packed: packWkt(shape.polygon) } : { polygon: shape.polygon }),
  centroid: shape.centroid,
  area_ha: shape.areaHa,
  bbox: shape.bbox,
  bounds: shape.bounds,
  start_date: shape.startDate,
});
