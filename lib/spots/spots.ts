// Spots (spec 1): create, change, delete, variables. A spot is a point or polygon inside its field
// (the field's current shape). Every request is checked whole before anything is written, and
// written in one transaction: the spot, its refs, its code, its tags and their counts, its texts
// and their images. A request that answers an error has changed nothing. Creates with a client
// uuid are idempotent within the field.
import type { Principal } from '../auth/principal';
import { retryLostRace } from '../db/retry';
import { Conflict, Invalid } from '../errors';
import { GeometryError, geometryKit } from '../geo/geometry';
import { characters } from '../util/text';
import { isoMillis, isoSeconds } from '../util/time';
import { newUuidV1 } from '../util/uuid';
import { SAMPLE_SET_TYPES, unitById } from './catalogue';
import { SPOT_CODES } from './codes';
import { SPOT_DELETED_JOB } from './jobs';
import { type LocateRules, noPermission } from './locate';
import { checkTexts, type MessageRules, spotWriteRefusals, type TextInput, textChanges, textWrite } from './messages';
import { checkUuidV1, newSpotCode, SPOT_LIMITS, type Spot, type SpotVariable, wrongFormat } from './model';
import type { SpotDeps } from './service';
import { type TagInput, type TagRules, tagCountChanges } from './tags';

export function checkVariables(variables: SpotVariable[]): SpotVariable[] {
  if (variables.length > SPOT_LIMITS.VARIABLES)
    throw wrongFormat(`a spot holds at most ${SPOT_LIMITS.VARIABLES} variables`);
  for (const v of variables) {
    if (!unitById(v.unit_id)) throw wrongFormat(`unit_id ${v.unit_id} is not a unit (see GET /api/utils/units)`);
  }
  return variables.map((v) => ({ name: v.name, unit_id: v.unit_id, value: v.value }));
}

function checkName(name: string | null | undefined): string | null | undefined {
  if (typeof name === 'string' && characters(name) > SPOT_LIMITS.NAME)
    throw wrongFormat(`name has at most ${SPOT_LIMITS.NAME} characters`);
  return name;
}

export interface SampleSetInput {
  sample_set_uuid: string;
  sample_set_type: string;
}

export interface SpotInput {
  uuid?: string;
  fieldId: number;
  name?: string | null;
  shape: string;
  tags?: TagInput[];
  groupUuid?: string | null;
  texts?: TextInput[];
  sampleSet?: SampleSetInput | null;
  variables?: SpotVariable[] | null;
}

export interface SpotChanges {
  fieldId?: number;
  name?: string | null;
  shape?: string;
  tags?: TagInput[];
  groupUuid?: string | null;
  texts?: TextInput[];
  sampleSet?: SampleSetInput | null;
  variables?: SpotVariable[] | null;
}

/** The spot's geometry, a point or polygon inside the field's current shape (codes 56 and 57). */
async function spotGeometry(
  polygon: string,
  wkt: string,
): Promise<{ shape: string; kind: 'point' | 'polygon'; areaHa: number }> {
  const { areaHectares, parseGeometry, readWkt, toWkt } = await geometryKit();
  let geometry;
  try {
    geometry = parseGeometry(wkt, ['Point', 'Polygon'], SPOT_LIMITS.VERTICES);
  } catch (error) {
    if (error instanceof GeometryError) throw new Invalid(error.message, { code: SPOT_CODES.INVALID_GEOMETRY });
    throw error;
  }
  if (!readWkt(polygon).covers(geometry))
    throw new Invalid('the spot must lie inside its field', { code: SPOT_CODES.OUTSIDE_FIELD });
  const kind = geometry.getGeometryType() === 'Point' ? 'point' : 'polygon';
  return { shape: toWkt(geometry), kind, areaHa: kind === 'point' ? 0 : areaHectares(geometry) };
}

export function spotRules(
  { repository, fields, images, publish, now = () => new Date() }: SpotDeps,
  locate: LocateRules,
  tags: TagRules,
  messages: MessageRules,
) {
  const { locateSpot } = locate;

  /** A field the caller may add spots to: 404 when it cannot be read, 403 (code 12) when read-only. */
  const writableField = (principal: Principal, fieldId: number) =>
    fields.field(principal, fieldId, 'write', {
      notFound: () => spotWriteRefusals.fieldNotFound(fieldId),
      forbidden: noPermission,
    });

  const geometryIn = async (field: Parameters<typeof fields.shape>[0], wkt: string) =>
    await spotGeometry((await fields.shape(field)).polygon, wkt);

  /** The id given to a sample_set_type text: the known types keep theirs; any other text gets the next one, once. */
  async function sampleSetTypeId(type: string): Promise<number> {
    const known = SAMPLE_SET_TYPES[type];
    if (known !== undefined) return known;
    return retryLostRace(async () => {
      const stored = await repository.sampleSetType(type);
      if (stored !== undefined) return stored;
      const id = 100 + (await repository.nextId('sample_set_type'));
      await repository.registerSampleSetType(type, id);
      return id;
    });
  }

  /**
   * The integer ids of a sample set of `ownerId` (the owner of the field): its type's, and its own
   * (allocated the first time the owner uses it; a sample set keeps its type).
   */
  async function sampleSetIds(ownerId: number, input: SampleSetInput): Promise<{ typeId: number; id: number }> {
    const type = typeof input.sample_set_type === 'string' ? input.sample_set_type.trim() : '';
    if (!type || type.length > SPOT_LIMITS.SAMPLE_SET_TYPE)
      throw wrongFormat(`sample_set_type must be a text of 1 to ${SPOT_LIMITS.SAMPLE_SET_TYPE} characters`);
    const typeId = await sampleSetTypeId(type);
    const id = await retryLostRace(async () => {
      const existing = await repository.sampleSet(ownerId, input.sample_set_uuid);
      if (existing) {
        if (existing.type !== type)
          throw wrongFormat(`sample set ${input.sample_set_uuid} is of type ${existing.type}`);
        return existing.id;
      }
      const allocated = await repository.nextId('sample_set');
      await repository.registerSampleSet(ownerId, input.sample_set_uuid, { id: allocated, type });
      return allocated;
    });
    return { typeId, id };
  }

  /**
   * PATCH: what is sent overwrites what is stored (spec 1). `tags` replaces every tag; `texts` is
   * the spot's complete list of texts: texts not in it are removed with their images, a text sent
   * again with other content is updated, new ones are added (docs/decisions.md, Spots).
   */
  async function patchSpot(principal: Principal, uuid: string, changes: SpotChanges): Promise<Spot> {
    const name = checkName(changes.name);
    const texts = changes.texts === undefined ? undefined : await checkTexts(changes.texts);
    const variables =
      changes.variables === undefined || changes.variables === null
        ? changes.variables
        : checkVariables(changes.variables);
    const released: Array<[number, string[]]> = [];
    const spot = await retryLostRace(async () => {
      const scope = await locateSpot(principal, uuid, 'write');
      const { spot } = scope;
      let target = { field: scope.field, farm: scope.farm };
      if (changes.fieldId !== undefined && changes.fieldId !== spot.fieldId)
        target = await writableField(principal, changes.fieldId);
      const next: Spot = {
        ...spot,
        fieldId: target.field.id,
        farmId: target.farm.id,
        ownerId: target.field.ownerId,
        version: spot.version + 1,
      };
      if (name !== undefined) next.name = name;
      if (changes.shape !== undefined || target.field.id !== spot.fieldId)
        Object.assign(next, await geometryIn(target.field, changes.shape ?? spot.shape));
      if (changes.groupUuid !== undefined) next.groupUuid = changes.groupUuid ? changes.groupUuid.toLowerCase() : null;
      if (variables !== undefined) next.variables = variables;
      if (changes.sampleSet !== undefined) {
        const ids = changes.sampleSet ? await sampleSetIds(target.field.ownerId, changes.sampleSet) : undefined;
        next.sampleSetType = changes.sampleSet ? changes.sampleSet.sample_set_type.trim() : null;
        next.sampleSetUuid = changes.sampleSet ? changes.sampleSet.sample_set_uuid.toLowerCase() : null;
        next.sampleSetTypeId = ids?.typeId ?? null;
        next.sampleSetId = ids?.id ?? null;
      }
      const write: Parameters<typeof repository.write>[0] = { replaced: { next, previous: spot } };
      if (changes.tags !== undefined) {
        const resolved = await tags.resolveSpotTags(principal, changes.tags, spot.tags);
        next.tags = resolved.refs;
        write.tagsCreated = resolved.created;
        write.tagCounts = tagCountChanges(spot.tags, resolved.refs, resolved.created);
      }
      let releasedImages: string[] = [];
      if (texts !== undefined) {
        const textOps = textChanges(principal, spot, await messages.messagesOf(spot.id), texts, true, now());
        Object.assign(write, textWrite(textOps));
        next.totalMsgs += textOps.messages;
        next.totalImgs += textOps.images;
        releasedImages = textOps.releasedImages;
      }
      // Moved: the uuid must be free in the target field; the spot keeps its id, texts and images.
      await repository.write(write, spotWriteRefusals);
      if (releasedImages.length) released.push([spot.id, releasedImages]);
      return next;
    });
    for (const [spotId, uuids] of released) await images.remove(spotId, uuids);
    return spot;
  }

  return {
    async createSpot(principal: Principal, input: SpotInput): Promise<Spot> {
      const uuid = input.uuid ? checkUuidV1(input.uuid, 'uuid') : newUuidV1();
      const name = checkName(input.name);
      const texts = await checkTexts(input.texts ?? []);
      const variables = input.variables ? checkVariables(input.variables) : null;
      return retryLostRace(async () => {
        const { field, farm } = await writableField(principal, input.fieldId);
        // A uuid names one spot per field: sent again to this field, it is the spot made the first
        // time (its texts added when new); a spot of this uuid the caller can see elsewhere conflicts.
        const holders = await repository.spotFields(uuid);
        if (holders.includes(field.id)) {
          const scope = await locateSpot(principal, uuid, 'write');
          const changes = textChanges(
            principal,
            scope.spot,
            await messages.messagesOf(scope.spot.id),
            texts,
            false,
            now(),
          );
          if (changes.texts.length)
            await repository.write(
              {
                ...textWrite(changes),
                counters: { spot: scope.spot, messages: changes.messages, images: changes.images },
              },
              spotWriteRefusals,
            );
          return (await locateSpot(principal, uuid)).spot;
        }
        if (await fields.readsAny(principal, holders))
          throw new Conflict(`spot ${uuid} exists in another field`, { code: SPOT_CODES.WRONG_FORMAT });

        const geometry = await geometryIn(field, input.shape);
        const sampleSet = input.sampleSet ? await sampleSetIds(field.ownerId, input.sampleSet) : undefined;
        const resolved = await tags.resolveSpotTags(principal, input.tags ?? []);
        const at = now().getTime();
        const spot: Spot = {
          id: await repository.nextId('spot'),
          uuid,
          code: newSpotCode(),
          fieldId: field.id,
          farmId: farm.id,
          ownerId: field.ownerId,
          name: name ?? null,
          ...geometry,
          creationTs: isoSeconds(at),
          createdAt: isoMillis(at),
          groupUuid: input.groupUuid ? input.groupUuid.toLowerCase() : null,
          sampleSetType: input.sampleSet ? input.sampleSet.sample_set_type.trim() : null,
          sampleSetUuid: input.sampleSet ? input.sampleSet.sample_set_uuid.toLowerCase() : null,
          sampleSetTypeId: sampleSet?.typeId ?? null,
          sampleSetId: sampleSet?.id ?? null,
          variables,
          tags: resolved.refs,
          totalImgs: 0,
          totalMsgs: 0,
          createdBy: principal.user.id,
          version: 1,
        };
        const changes = textChanges(principal, spot, [], texts, false, now());
        spot.totalMsgs = changes.messages;
        spot.totalImgs = changes.images;
        await repository.write(
          {
            created: spot,
            tagsCreated: resolved.created,
            tagCounts: tagCountChanges([], resolved.refs, resolved.created),
            ...textWrite(changes),
          },
          spotWriteRefusals,
        );
        return spot;
      });
    },

    patchSpot,

    /** Deletes the spot; its messages and images are removed by the worker (SPOT_DELETED.V1). */
    async deleteSpot(principal: Principal, uuid: string): Promise<{ spot: Spot; deletedAt: string }> {
      const spot = await retryLostRace(async () => {
        const { spot } = await locateSpot(principal, uuid, 'write');
        await repository.write({ deleted: { spot }, tagCounts: tagCountChanges(spot.tags, []) }, spotWriteRefusals);
        return spot;
      });
      // the cleanup job (the spot's webhook events, as its feed entries, come from the table's
      // stream: lib/webhooks/record-events.ts)
      await publish(SPOT_DELETED_JOB, { spot_id: spot.id });
      return { spot, deletedAt: isoSeconds(now()) };
    },
  };
}

/** A spot's variables: replaced (PATCH /api/spots/variables) or merged by name (sheet uploads). */
export function variableRules({ repository }: Pick<SpotDeps, 'repository'>, { locateSpot }: LocateRules) {
  async function change(
    principal: Principal,
    uuid: string,
    next: (stored: SpotVariable[]) => SpotVariable[],
  ): Promise<Spot> {
    return retryLostRace(async () => {
      const { spot } = await locateSpot(principal, uuid, 'write');
      const changed: Spot = { ...spot, variables: next(spot.variables ?? []), version: spot.version + 1 };
      await repository.write({ replaced: { next: changed, previous: spot } }, spotWriteRefusals);
      return changed;
    });
  }
  return {
    replaceVariables(principal: Principal, uuid: string, variables: SpotVariable[]): Promise<Spot> {
      const checked = checkVariables(variables);
      return change(principal, uuid, () => checked);
    },

    /** Merges variables by name into a spot's; the others stay. */
    async mergeVariables(principal: Principal, uuid: string, incoming: SpotVariable[]): Promise<void> {
      await change(principal, uuid, (stored) => {
        const merged = new Map(stored.map((v) => [v.name, v]));
        for (const v of incoming) merged.set(v.name, v);
        return checkVariables([...merged.values()]);
      });
    },
  };
}
