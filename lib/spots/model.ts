// Spots (spec 1): management zones (a point or polygon inside a field) with a name, tags,
// messages with images, measured variables and optionally a sample set. Every record carries a
// client UUID (v1) so that it can be created offline and sent again without duplicates; a client
// uuid names a record within its owner's scope (a spot within its field, a text or image within
// its spot, a tag or sample set within its owner), so that no tenant can block or probe another's
// records by choosing the same uuid (docs/decisions.md, "Client uuids").
import { as, type EntityOf, entity, mapped, nullable, num, numOr, str } from '../db/entity';
import { Invalid } from '../errors';
import { isUuid, uuidVersion } from '../util/uuid';
import { SPOT_CODES } from './codes';

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

/** A spot, defined once: its item attributes and types (lib/db/entity.ts). */
export const Spot = entity(
  'spot',
  {
    id: num('id'),
    uuid: str('uuid'),
    code: str('code'),
    fieldId: num('field_id'),
    farmId: num('farm_id'),
    /** Owner of the field (the tenant the spot's data belongs to). */
    ownerId: num('owner_id'),
    name: nullable(str('name')),
    shape: str('shape'),
    kind: mapped<'point' | 'polygon'>(
      'spot_kind',
      (v) => (v === 'point' ? 'point' : 'polygon'),
      (v) => v,
    ),
    areaHa: num('area_ha'),
    /** YYYY-MM-DDTHH:MM:SSZ */
    creationTs: str('creation_ts'),
    /** YYYY-MM-DDTHH:MM:SS.mmmZ: orders spots created within one second (older items: creation_ts). */
    createdAt: mapped(
      'created_at',
      (v, item) => String(v ?? item.creation_ts),
      (v: string) => v,
    ),
    groupUuid: nullable(str('group_uuid')),
    sampleSetType: nullable(str('sample_set_type')),
    sampleSetUuid: nullable(str('sample_set_uuid')),
    sampleSetTypeId: nullable(num('sample_set_type_id')),
    sampleSetId: nullable(num('sample_set_id')),
    variables: as<SpotVariable[] | null>('variables', null),
    tags: mapped<TagRef[]>(
      'tags',
      (v) =>
        ((v as Array<{ uuid: string; owner_id: number | null }> | undefined) ?? []).map((t) => ({
          uuid: t.uuid,
          ownerId: t.owner_id,
        })),
      (tags) => tags.map((t) => ({ uuid: t.uuid, owner_id: t.ownerId })),
    ),
    totalImgs: numOr('total_imgs', 0),
    totalMsgs: numOr('total_msgs', 0),
    createdBy: num('created_by'),
    version: numOr('version', 1),
  },
  // the sparse index of sample sets reads this
  { derived: (spot) => ({ has_sample_set: spot.sampleSetUuid !== null }) },
);
export type Spot = EntityOf<typeof Spot>;

export interface ImageDeclaration {
  uuid: string;
  /** WKT POINT where the photo was taken. */
  coordinate: string;
}

export const SpotMessage = entity('spot_message', {
  uuid: str('uuid'),
  spotId: num('spot_id'),
  text: str('text'),
  /** The user's local time, kept as sent (YYYY-MM-DDTHH:MM:SSZ). */
  timestampUsr: str('timestamp_usr'),
  imgs: as<ImageDeclaration[]>('imgs', []),
  createdAt: str('created_at'),
  createdBy: num('created_by'),
});
export type SpotMessage = EntityOf<typeof SpotMessage>;

/** A short code of three hyphen-separated alphanumeric groups (Crockford's alphabet: no I, L, O, U). */
export function newSpotCode(random: () => number = Math.random): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const group = () => Array.from({ length: 3 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  return `${group()}-${group()}-${group()}`;
}
