// Spots (spec 1): management zones (a point or polygon inside a field) with a name, tags,
// messages with images, measured variables and optionally a sample set. Every record carries a
// client UUID (v1) so that it can be created offline and sent again without duplicates; a client
// uuid names a record within its owner's scope (a spot within its field, a text or image within
// its spot, a tag or sample set within its owner), so that no tenant can block or probe another's
// records by choosing the same uuid (docs/decisions.md, "Client uuids").
import { validate as isUuid, version as uuidVersion } from 'uuid';
import { Invalid } from '../errors';

/** Spots error codes (spec 1, Errors, spots) and the ones this service adds (docs/decisions.md). */
export const SPOT_CODES = {
  NOT_STORED: 51, // image could not be stored; tag in use; sheet format not supported
  TAG_IN_USE: 51,
  FORMAT_NOT_SUPPORTED: 51,
  SHEET_NOT_LOADED: 52,
  MISSING_COLUMN: 53,
  NO_VALID_RECORD: 54,
  NO_VALID_VARIABLES: 55,
  INVALID_GEOMETRY: 56,
  OUTSIDE_FIELD: 57,
  NO_PERMISSION: 12,
  NOT_FOUND: 404,
  WRONG_FORMAT: -4,
} as const;

/** Bounds of what one request may carry (docs/decisions.md, Spots): one transaction holds it all. */
export const SPOT_LIMITS = {
  NAME: 200,
  TAGS: 10,
  TAG_NAME: 100,
  TEXTS: 10,
  TEXT: 5000,
  IMAGES_PER_TEXT: 5,
  VARIABLES: 200,
  VARIABLE_NAME: 200,
  /** Vertices of a spot polygon. */
  VERTICES: 2000,
  SAMPLE_SET_TYPE: 100,
} as const;

export const isUuidV1 = (value: string): boolean => isUuid(value) && uuidVersion(value) === 1;

export const wrongFormat = (message: string) => new Invalid(message, { code: SPOT_CODES.WRONG_FORMAT });

export function checkUuidV1(value: string, what: string): string {
  if (!isUuidV1(value)) throw wrongFormat(`${what} must be a UUID v1`);
  return value.toLowerCase();
}

export interface SpotVariable {
  name: string;
  unit_id: number;
  value: number;
}

/** A tag on a spot: a common tag (owner null) or a user's tag. */
export interface TagRef {
  uuid: string;
  ownerId: number | null;
}

/** One key per tag: a common tag's uuid, or an owner's. */
export const tagRefKey = (ref: TagRef) => `${ref.ownerId ?? 'common'}:${ref.uuid}`;

export interface Spot {
  id: number;
  uuid: string;
  code: string;
  fieldId: number;
  farmId: number;
  /** Owner of the field (the tenant the spot's data belongs to). */
  ownerId: number;
  name: string | null;
  shape: string;
  kind: 'point' | 'polygon';
  areaHa: number;
  /** YYYY-MM-DDTHH:MM:SSZ */
  creationTs: string;
  /** YYYY-MM-DDTHH:MM:SS.mmmZ: orders spots created within one second. */
  createdAt: string;
  groupUuid: string | null;
  sampleSetType: string | null;
  sampleSetUuid: string | null;
  sampleSetTypeId: number | null;
  sampleSetId: number | null;
  variables: SpotVariable[] | null;
  tags: TagRef[];
  totalImgs: number;
  totalMsgs: number;
  createdBy: number;
  version: number;
}

type Item = Record<string, unknown>;
const nullable = <T>(value: unknown, map: (v: unknown) => T): T | null => (value === null || value === undefined ? null : map(value));

export const spotFromItem = (item: Item): Spot => ({
  id: Number(item.id),
  uuid: String(item.uuid),
  code: String(item.code),
  fieldId: Number(item.field_id),
  farmId: Number(item.farm_id),
  ownerId: Number(item.owner_id),
  name: nullable(item.name, String),
  shape: String(item.shape),
  kind: item.spot_kind === 'point' ? 'point' : 'polygon',
  areaHa: Number(item.area_ha),
  creationTs: String(item.creation_ts),
  createdAt: String(item.created_at ?? item.creation_ts),
  groupUuid: nullable(item.group_uuid, String),
  sampleSetType: nullable(item.sample_set_type, String),
  sampleSetUuid: nullable(item.sample_set_uuid, String),
  sampleSetTypeId: nullable(item.sample_set_type_id, Number),
  sampleSetId: nullable(item.sample_set_id, Number),
  variables: (item.variables as SpotVariable[] | null | undefined) ?? null,
  tags: ((item.tags as Array<{ uuid: string; owner_id: number | null }> | undefined) ?? []).map((t) => ({ uuid: t.uuid, ownerId: t.owner_id })),
  totalImgs: Number(item.total_imgs ?? 0),
  totalMsgs: Number(item.total_msgs ?? 0),
  createdBy: Number(item.created_by),
  version: Number(item.version ?? 1),
});

export const spotToItem = (spot: Spot): Item => ({
  kind: 'spot',
  id: spot.id,
  uuid: spot.uuid,
  code: spot.code,
  field_id: spot.fieldId,
  farm_id: spot.farmId,
  owner_id: spot.ownerId,
  name: spot.name,
  shape: spot.shape,
  spot_kind: spot.kind,
  area_ha: spot.areaHa,
  creation_ts: spot.creationTs,
  created_at: spot.createdAt,
  group_uuid: spot.groupUuid,
  sample_set_type: spot.sampleSetType,
  sample_set_uuid: spot.sampleSetUuid,
  sample_set_type_id: spot.sampleSetTypeId,
  sample_set_id: spot.sampleSetId,
  has_sample_set: spot.sampleSetUuid !== null,
  variables: spot.variables,
  tags: spot.tags.map((t) => ({ uuid: t.uuid, owner_id: t.ownerId })),
  total_imgs: spot.totalImgs,
  total_msgs: spot.totalMsgs,
  created_by: spot.createdBy,
  version: spot.version,
});

export interface ImageDeclaration {
  uuid: string;
  /** WKT POINT where the photo was taken. */
  coordinate: string;
}

export interface SpotMessage {
  uuid: string;
  spotId: number;
  text: string;
  /** The user's local time, kept as sent (YYYY-MM-DDTHH:MM:SSZ). */
  timestampUsr: string;
  imgs: ImageDeclaration[];
  createdAt: string;
  createdBy: number;
}

export const messageFromItem = (item: Item): SpotMessage => ({
  uuid: String(item.uuid),
  spotId: Number(item.spot_id),
  text: String(item.text),
  timestampUsr: String(item.timestamp_usr),
  imgs: (item.imgs as ImageDeclaration[] | undefined) ?? [],
  createdAt: String(item.created_at),
  createdBy: Number(item.created_by),
});

export const messageToItem = (m: SpotMessage): Item => ({
  kind: 'spot_message',
  uuid: m.uuid,
  spot_id: m.spotId,
  text: m.text,
  timestamp_usr: m.timestampUsr,
  imgs: m.imgs,
  created_at: m.createdAt,
  created_by: m.createdBy,
});

/** A short code of three hyphen-separated alphanumeric groups (Crockford's alphabet: no I, L, O, U). */
export function newSpotCode(random: () => number = Math.random): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const group = () => Array.from({ length: 3 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  return `${group()}-${group()}-${group()}`;
}
