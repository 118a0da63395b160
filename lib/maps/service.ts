// User maps (spec 2, Maps; docs/decisions.md "Maps"). A map belongs to its field (it goes with the
// field) and to its creator (names unique per creator); every change is one atomic write, with the
// planned application labour when one is requested.
//
// The service is built from its repository, gate and the labours' planned applications (services
// take them as parameters): its rules run against DynamoDB in the functions (lib/maps/repository.ts)
// and against memory in tests/unit/maps.test.ts.
import type { Principal } from '../auth/principal';
import { can } from '../authz/access';
import type { FieldGate } from '../authz/gate';
import { retryLostRace } from '../db/retry';
import { Conflict, type DomainError, Forbidden, Invalid, NotFound } from '../errors';
import { geometryKit } from '../geo/geometry';
import type { LabourSave } from '../labours/service';
import type { Field } from '../platform/model';
import { MAP_INFOS } from './codes';
import {
  checkGeoJson,
  checkMetadata,
  checkName,
  checkType,
  type MapGeoJson,
  type MapMetadata,
  type MapRecord,
} from './model';

const notFound = () => new NotFound(MAP_INFOS.NOT_FOUND);
const invalidField = () => new Invalid(MAP_INFOS.INVALID_FIELD);
const noPermission = () => new Forbidden(MAP_INFOS.NO_PERMISSION);
const denied = () => new Forbidden(MAP_INFOS.DENIED);
const nameTaken = () => new Conflict(MAP_INFOS.NAME_TAKEN);

/**
 * create_application records a labour: it needs what a labour write needs, the View season feature
 * (SEASON_VIEW in the claimset and the plan; POST /activities/labour answers 403 code 11 without
 * it), whether or not the map already has its application.
 */
function mayRecordApplication(principal: Principal, input: MapInput): void {
  if (input.createApplication !== true || principal.claims.has('SEASON_VIEW')) return;
  throw new Forbidden(MAP_INFOS.NO_PERMISSION, {
    extra: { detail: 'create_application records a labour: it needs the View season feature (SEASON_VIEW)' },
  });
}

/** Where maps are kept. Writes are atomic; a map's name is unique per owner (`nameTaken`). */
export interface MapRepository {
  nextId(): Promise<number>;
  /** The field of a map. */
  fieldOf(mapId: number): Promise<number | undefined>;
  map(fieldId: number, mapId: number): Promise<MapRecord | undefined>;
  mapsOfField(fieldId: number): Promise<MapRecord[]>;
  mapsOfOwner(ownerId: number): Promise<MapRecord[]>;
  /** Stores a new map, with its planned application when given. */
  create(map: MapRecord, application: LabourSave | undefined, nameTaken: () => DomainError): Promise<void>;
  /** Replaces a map read as `previous` (a LostRace when it changed meanwhile), with its planned application when given. */
  replace(
    next: MapRecord,
    previous: MapRecord,
    application: LabourSave | undefined,
    nameTaken: () => DomainError,
  ): Promise<void>;
  remove(map: MapRecord): Promise<void>;
}

export interface MapDeps {
  repository: MapRepository;
  fields: FieldGate;
  /** The planned application labour of a map (lib/labours), to write with it. */
  plannedApplication: (
    userId: number,
    field: Field,
    mapId: number,
    yeargroup: number,
    date: string,
  ) => Promise<LabourSave>;
  now?: () => Date;
}

export interface MapInput {
  name?: unknown;
  fieldId?: unknown;
  typeId?: unknown;
  geojson?: unknown;
  metadata?: unknown;
  createApplication?: boolean;
}

export function mapsService({ repository, fields, plannedApplication, now = () => new Date() }: MapDeps) {
  /** The field a map may be drawn on by the caller: 'Invalid field' when it cannot read it, no permission when it cannot change it. */
  async function writableField(principal: Principal, fieldId: unknown) {
    if (!Number.isInteger(fieldId) || Number(fieldId) < 1) throw invalidField();
    return fields.field(principal, Number(fieldId), 'write', { notFound: invalidField, forbidden: noPermission });
  }

  /** The field's polygon in the current campaign (its season shape, if it has one). */
  const fieldPolygon = async (field: Field): Promise<string> => (await fields.shape(field)).polygon;
  const currentCampaign = () => now().getUTCFullYear();

  /** The map of an id, when the caller can read its field; 'Map not found' otherwise. */
  async function locate(principal: Principal, mapId: number) {
    const fieldId = await repository.fieldOf(mapId);
    if (fieldId === undefined) throw notFound();
    const { field, access } = await fields.field(principal, fieldId, 'read', { notFound, forbidden: notFound });
    const map = await repository.map(field.id, mapId);
    if (!map) throw notFound();
    return { map, field, canWrite: can(access, 'write') };
  }

  return {
    async getMap(principal: Principal, mapId: number): Promise<MapRecord> {
      return (await locate(principal, mapId)).map;
    },

    /** The maps of a field the caller can read (every user's), or the caller's own maps. */
    async listMaps(principal: Principal, filter: { fieldId?: number }): Promise<MapRecord[]> {
      if (filter.fieldId === undefined) return repository.mapsOfOwner(principal.user.id);
      await fields.field(principal, filter.fieldId, 'read', { notFound: invalidField, forbidden: invalidField });
      return repository.mapsOfField(filter.fieldId);
    },

    async createMap(principal: Principal, input: MapInput): Promise<MapRecord> {
      mayRecordApplication(principal, input);
      const name = checkName(input.name);
      const typeId = checkType(input.typeId);
      const metadata = checkMetadata(input.metadata);
      if (input.fieldId === undefined)
        throw new Invalid(MAP_INFOS.INVALID_PARAMETERS, { extra: { detail: 'id_lote is required' } });
      const { field } = await writableField(principal, input.fieldId);
      const geojson = checkGeoJson(await geometryKit(), input.geojson, await fieldPolygon(field), metadata);
      const map: MapRecord = {
        id: await repository.nextId(),
        name,
        fieldId: field.id,
        typeId,
        ownerId: principal.user.id,
        createdAt: now().toISOString(),
        metadata,
        geojson,
        applicationRequested: input.createApplication === true,
        version: 1,
      };
      // create_application: a planned application of the field's current campaign that references the
      // map, written in the same transaction (docs/decisions.md, Maps)
      const application = input.createApplication
        ? await plannedApplication(principal.user.id, field, map.id, currentCampaign(), map.createdAt.slice(0, 10))
        : undefined;
      await repository.create(map, application, nameTaken);
      return map;
    },

    /**
     * PUT (`replace`: every member as POST sends it) and PATCH (only what is sent changes). Only the
     * map's creator may change it ('Denied access'), while it can still change the field.
     */
    async changeMap(
      principal: Principal,
      mapId: number,
      input: MapInput,
      mode: 'replace' | 'patch',
    ): Promise<MapRecord> {
      mayRecordApplication(principal, input);
      return retryLostRace(async () => {
        const { map, field, canWrite } = await locate(principal, mapId);
        if (map.ownerId !== principal.user.id) throw denied();
        if (!canWrite) throw noPermission();
        const sent = (value: unknown) => mode === 'replace' || value !== undefined;
        if (sent(input.fieldId) && input.fieldId !== map.fieldId) {
          throw new Invalid(MAP_INFOS.INVALID_PARAMETERS, {
            extra: { detail: "a map stays on its field: id_lote is the map's own" },
          });
        }
        const next: MapRecord = { ...map, version: map.version + 1 };
        if (sent(input.name)) next.name = checkName(input.name);
        if (sent(input.typeId)) next.typeId = checkType(input.typeId);
        if (sent(input.metadata)) next.metadata = checkMetadata(input.metadata);
        if (sent(input.geojson) || sent(input.metadata)) {
          next.geojson = checkGeoJson(
            await geometryKit(),
            sent(input.geojson) ? input.geojson : map.geojson,
            await fieldPolygon(field),
            next.metadata,
          );
        }
        // create_application on a change: the map's planned application, unless it has one already
        const application =
          input.createApplication === true && !map.applicationRequested
            ? await plannedApplication(
                principal.user.id,
                field,
                map.id,
                currentCampaign(),
                now().toISOString().slice(0, 10),
              )
            : undefined;
        if (input.createApplication === true) next.applicationRequested = true;
        await repository.replace(next, map, application, nameTaken);
        return next;
      });
    },

    /**
     * DELETE (not shown in the contract): the creator removes the map, with its ref, list and name
     * items, while it can still change the field (as PUT and PATCH: a share downgraded to read no
     * longer deletes).
     */
    async deleteMap(principal: Principal, mapId: number): Promise<void> {
      const { map, canWrite } = await locate(principal, mapId);
      if (map.ownerId !== principal.user.id) throw denied();
      if (!canWrite) throw noPermission();
      await repository.remove(map);
    },
  };
}

export type { MapGeoJson, MapMetadata };
