// Listing spots (spec 1: GET /spots/spot, POST /api/spots/getspot and /api/spots/all): filters
// combined with AND, the sample-set rule, newest first, page/page_size (-1 for all).
//
// "page_size ... and page ... apply LIMIT page_size OFFSET page": `page` is a row offset, as the
// contract says (docs/decisions.md). DynamoDB has no offset: each readable field's spots are read
// newest first from an index (field, creation time) only as far as the page needs, and merged.
// For deep paging the answer also carries an opaque `cursor` that, sent back instead of `page`,
// continues after the last spot returned at a constant cost.

import type { Principal } from '../auth/principal';
import { farmReach } from '../authz/by-farm';
import type { FieldInScope } from '../authz/gate';
import { Invalid } from '../errors';
import { geometryKit, type JstsGeometry } from '../geo/geometry';
import { mergeOrdered, pageShare } from '../util/merge';
import { SPOT_CODES } from './codes';
import type { Spot, SpotMessage } from './model';
import type { SpotDeps } from './service';
import type { SpotTag, TagRules } from './tags';

export interface SpotFilters {
  uuids?: string[];
  groupUuid?: string;
  farmId?: number;
  fieldId?: number;
  sampleSetType?: string;
  sampleSetUuid?: string;
  /** YYYY-MM-DDTHH:MM:SSZ, inclusive */
  dateFrom?: string;
  dateTo?: string;
  tagUuid?: string;
  /** Sheets list every spot, sample-related ones included. */
  includeSampleSpots?: boolean;
}

export interface Paging {
  page: number;
  /** -1: all */
  pageSize: number;
  cursor?: string;
}

export interface SpotPage {
  spots: Spot[];
  continues: boolean;
  /** Send back as `cursor` to get the next page; present when `continues`. */
  cursor?: string;
  /** The spots' tags, by tagRefKey. */
  tags: Map<string, SpotTag>;
  groupShapes: Map<string, string>;
}

const sortKey = (spot: Spot) => `${spot.createdAt}#${spot.uuid}`;
const newestFirst = (a: Spot, b: Spot) => (sortKey(a) < sortKey(b) ? 1 : sortKey(a) > sortKey(b) ? -1 : 0);

export const encodeCursor = (key: string) => Buffer.from(JSON.stringify({ k: key })).toString('base64url');
function decodeCursor(cursor: string): string {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown };
    if (typeof value.k === 'string') return value.k;
  } catch {
    /* fall through */
  }
  throw new Invalid('cursor is not one this service gave', { code: SPOT_CODES.WRONG_FORMAT });
}

function matches(spot: Spot, filters: SpotFilters): boolean {
  if (filters.groupUuid && spot.groupUuid !== filters.groupUuid.toLowerCase()) return false;
  if (filters.sampleSetType && spot.sampleSetType !== filters.sampleSetType) return false;
  if (filters.sampleSetUuid && spot.sampleSetUuid !== filters.sampleSetUuid.toLowerCase()) return false;
  // Without a sample-set condition only spots unrelated to samples are listed.
  if (!filters.includeSampleSpots && !filters.sampleSetType && !filters.sampleSetUuid && spot.sampleSetUuid !== null)
    return false;
  if (filters.dateFrom && spot.creationTs < filters.dateFrom) return false;
  if (filters.dateTo && spot.creationTs > filters.dateTo) return false;
  if (filters.tagUuid && !spot.tags.some((t) => t.uuid === filters.tagUuid!.toLowerCase())) return false;
  return true;
}

function fieldsInScope(fields: FieldInScope[], filters: SpotFilters): FieldInScope[] {
  return fields.filter(
    (f) =>
      (filters.farmId === undefined || f.farm.id === filters.farmId) &&
      (filters.fieldId === undefined || f.field.id === filters.fieldId),
  );
}

/** Several sources of spots, each newest first, merged newest first (their first pages read 8 at a time). */
async function* newestOfAll(sources: Array<AsyncIterable<Spot>>): AsyncGenerator<Spot> {
  for await (const { item } of mergeOrdered(sources, newestFirst, 8)) yield item;
}

/** Which of the fields of these spots the caller reads, by id. */
type Readable = (spots: ReadonlyArray<Pick<Spot, 'fieldId' | 'farmId'>>) => Promise<Set<number>>;
/** Which of these fields the caller reads. */
type ReadableFields = (fieldIds: number[]) => Promise<Set<number>>;

export function listRules({ repository, fields }: Pick<SpotDeps, 'repository' | 'fields'>, { tagsOf }: TagRules) {
  /**
   * Up to `need` spots of a source (newest first) that match, older than `before` when given; of a
   * farm's index, those of fields the caller reads (`readable`, asked as few times as the page allows).
   */
  async function sourceSpots(
    read: (lower: string, upper: string, pageSize: number | undefined) => AsyncIterable<Spot>,
    filters: SpotFilters,
    need: number | undefined,
    before?: string,
    readable?: Readable,
  ): Promise<Spot[]> {
    const found: Spot[] = [];
    let pending: Spot[] = [];
    const settle = async () => {
      if (readable && pending.length) {
        const reads = await readable(pending);
        pending = pending.filter((s) => reads.has(s.fieldId));
      }
      found.push(...pending);
      pending = [];
    };
    // creation instants are YYYY-MM-DDTHH:MM:SS.mmmZ#uuid; the filters name whole seconds
    const upper = before ?? `${filters.dateTo ? `${filters.dateTo.slice(0, 19)}.999Z` : '9999'}#~`;
    const lower = filters.dateFrom ? `${filters.dateFrom.slice(0, 19)}.000Z` : '0000';
    // a query page of what the list needs: twice that when a filter or the caller's reach may pass
    // over many of the spots read (read units follow the items read, not the items answered)
    const sifted = Boolean(
      readable || filters.groupUuid || filters.sampleSetType || filters.sampleSetUuid || filters.tagUuid,
    );
    const pageSize = need ? Math.min(Math.max(sifted ? need * 2 : need, 25), 500) : undefined;
    for await (const spot of read(lower, upper, pageSize)) {
      if (before && sortKey(spot) >= before) continue;
      if (matches(spot, filters)) pending.push(spot);
      if (need !== undefined && found.length + pending.length >= need) {
        await settle();
        if (found.length >= need) break;
      }
    }
    await settle();
    return need === undefined ? found : found.slice(0, need);
  }

  /** Shape of each group: the convex hull of the readable spots of the group. */
  async function groupShapes(spots: Spot[], readable: Readable): Promise<Map<string, string>> {
    const shapes = new Map<string, string>();
    for (const group of new Set(spots.flatMap((s) => (s.groupUuid ? [s.groupUuid] : [])))) {
      const all = await repository.groupMembers(group);
      const reads = await readable(all);
      const members = all.filter((s) => reads.has(s.fieldId));
      if (!members.length) continue;
      const { readWkt, toWkt } = await geometryKit();
      const union = members
        .map((m) => readWkt(m.shape))
        .reduce((a: JstsGeometry, b: JstsGeometry) =>
          (a as unknown as { union(o: JstsGeometry): JstsGeometry }).union(b),
        );
      shapes.set(group, toWkt((union as unknown as { convexHull(): JstsGeometry }).convexHull()));
    }
    return shapes;
  }

  /**
   * The sources of a list: with a field named, or before the farms' index holds every spot, each
   * readable field (its own index); else each farm the caller reads whole (its farm's index, gsi3:
   * a query per farm, not per field) and each field shared with it alone, and the fields read are
   * those of the spots answered only.
   */
  async function sourcesOf(
    principal: Principal,
    filters: SpotFilters,
  ): Promise<{
    sources: Array<{ read: Parameters<typeof sourceSpots>[0]; readable?: Readable }>;
    readable: Readable;
    /** Which of these fields the caller reads (the fields of spots asked for by uuid). */
    readableFields: ReadableFields;
    /** Every field read, when known without reading the fields the spots are in. */
    selected?: Set<number>;
  }> {
    const byField = (fieldIds: number[], readableFields: ReadableFields) => ({
      readableFields,
      readable: (spots: ReadonlyArray<Pick<Spot, 'fieldId'>>) => readableFields(spots.map((s) => s.fieldId)),
      sources: fieldIds.map((fieldId) => ({
        read: (lower: string, upper: string, pageSize: number | undefined) =>
          repository.fieldSpots(fieldId, lower, upper, pageSize),
      })),
    });
    if (filters.fieldId === undefined && (await repository.byFarm())) {
      const reach = await farmReach(
        fields,
        principal,
        undefined,
        filters.farmId === undefined ? undefined : [filters.farmId],
      );
      // a spot of a farm's index is of a field the caller reads when its grants say so and the farm
      // (read with them) is not deleting it: no field is read for it
      const readable: Readable = async (spots) =>
        new Set(spots.filter((s) => reach.listedFarm(s.fieldId, s.farmId)).map((s) => s.fieldId));
      const readableFields: ReadableFields = async (fieldIds) => new Set((await reach.readable(fieldIds)).keys());
      const singles = reach.readableSingleFieldIds;
      // one source, the farms' and the single fields' merged newest first: the fields of the spots
      // that might make the page are the only ones read
      const sources = reach.wholeFarms.length + singles.length;
      const read = (lower: string, upper: string, pageSize: number | undefined) => {
        // the page is shared among the sources: each reads its even share first, then on as the merge
        // takes, in growing reads (a farm that holds most of the page reads it in a few calls)
        const each = pageSize && pageShare(pageSize, sources, 10, 1);
        return newestOfAll([
          ...reach.wholeFarms.map((farm) => repository.farmSpots(farm.id, lower, upper, each)),
          ...singles.map((fieldId) => repository.fieldSpots(fieldId, lower, upper, each)),
        ]);
      };
      return { readable, readableFields, sources: [{ read, readable }] };
    }
    // one field named: that field is read, not every field the caller reaches
    const reached =
      filters.fieldId !== undefined
        ? await fields.readableOf(principal, [filters.fieldId])
        : await fields.readable(principal);
    const selected = new Set(fieldsInScope(reached, filters).map((f) => f.field.id));
    return {
      ...byField([...selected], async (fieldIds) => new Set(fieldIds.filter((id) => selected.has(id)))),
      selected,
    };
  }

  return {
    async listSpots(principal: Principal, filters: SpotFilters, paging: Paging): Promise<SpotPage> {
      const { sources, readable, readableFields, selected } = await sourcesOf(principal, filters);
      const all = paging.pageSize < 0;
      const offset = paging.cursor || all ? 0 : paging.page;
      const need = all ? undefined : offset + paging.pageSize + 1;
      const before = paging.cursor ? decodeCursor(paging.cursor) : undefined;

      let candidates: Spot[];
      if (filters.uuids) {
        const wanted = [...new Set(filters.uuids.map((u) => u.toLowerCase()))];
        // the fields holding these uuids that the caller reads (by farm: asked of the fields holding them)
        const reads =
          selected ??
          (await readableFields([
            ...new Set((await Promise.all(wanted.map((uuid) => repository.spotFields(uuid)))).flat()),
          ]));
        candidates = (await repository.spotsNamed(wanted, reads)).filter(
          (s) => matches(s, filters) && (!before || sortKey(s) < before),
        );
      } else {
        const perSource: Spot[][] = [];
        for (let i = 0; i < sources.length; i += 8) {
          perSource.push(
            ...(await Promise.all(
              sources.slice(i, i + 8).map((s) => sourceSpots(s.read, filters, need, before, s.readable)),
            )),
          );
        }
        candidates = perSource.flat();
      }
      candidates.sort(newestFirst);
      const spots = all ? candidates : candidates.slice(offset, offset + paging.pageSize);
      const continues = !all && candidates.length > offset + paging.pageSize;
      const last = spots[spots.length - 1];
      return {
        spots,
        continues,
        ...(continues && last ? { cursor: encodeCursor(sortKey(last)) } : {}),
        tags: await tagsOf(spots.flatMap((s) => s.tags)),
        groupShapes: await groupShapes(spots, readable),
      };
    },
    /**
     * The texts of a listed spot (POST /spots/all), newest first. A spot's item counts its texts
     * (`total_msgs`, moved in the transaction of every text written or removed), so a spot without
     * any costs no read: a page of 50 spots reads only the texts of those that have some.
     */
    async listedMessages(spot: Spot): Promise<SpotMessage[]> {
      return spot.totalMsgs > 0 ? repository.messages(spot.id) : [];
    },
  };
}
