// Listing spots (spec 1: GET /spots/spot, POST /api/spots/getspot and /api/spots/all): filters
// combined with AND, the sample-set rule, newest first, page/page_size (-1 for all).
//
// "page_size ... and page ... apply LIMIT page_size OFFSET page": `page` is a row offset, as the
// contract says (docs/decisions.md). DynamoDB has no offset: each readable field's spots are read
// newest first from an index (field, creation time) only as far as the page needs, and merged.
// For deep paging the answer also carries an opaque `cursor` that, sent back instead of `page`,
// continues after the last spot returned at a constant cost.

import type { Principal } from '../auth/principal';
import type { FieldInScope } from '../authz/gate';
import { Invalid } from '../errors';
import { geometryKit, type JstsGeometry } from '../geo/geometry';
import { SPOT_CODES } from './codes';
import type { Spot } from './model';
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

export function listRules({ repository, fields }: Pick<SpotDeps, 'repository' | 'fields'>, { tagsOf }: TagRules) {
  /** Up to `need` matching spots of one field, newest first, older than `before` when given. */
  async function fieldSpots(
    fieldId: number,
    filters: SpotFilters,
    need: number | undefined,
    before?: string,
  ): Promise<Spot[]> {
    const found: Spot[] = [];
    // creation instants are YYYY-MM-DDTHH:MM:SS.mmmZ#uuid; the filters name whole seconds
    const upper = before ?? `${filters.dateTo ? `${filters.dateTo.slice(0, 19)}.999Z` : '9999'}#~`;
    const lower = filters.dateFrom ? `${filters.dateFrom.slice(0, 19)}.000Z` : '0000';
    const pageSize = need ? Math.min(Math.max(need * 2, 25), 500) : undefined;
    for await (const spot of repository.fieldSpots(fieldId, lower, upper, pageSize)) {
      if (before && sortKey(spot) >= before) continue;
      if (matches(spot, filters)) found.push(spot);
      if (need !== undefined && found.length >= need) break;
    }
    return found;
  }

  /** Shape of each group: the convex hull of the readable spots of the group. */
  async function groupShapes(spots: Spot[], readable: Set<number>): Promise<Map<string, string>> {
    const shapes = new Map<string, string>();
    for (const group of new Set(spots.flatMap((s) => (s.groupUuid ? [s.groupUuid] : [])))) {
      const members = (await repository.groupMembers(group)).filter((s) => readable.has(s.fieldId));
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

  return {
    async listSpots(principal: Principal, filters: SpotFilters, paging: Paging): Promise<SpotPage> {
      // one field named: that field is read, not every field the caller reaches
      const reached =
        filters.fieldId !== undefined
          ? await fields.readableOf(principal, [filters.fieldId])
          : await fields.readable(principal);
      const selected = fieldsInScope(reached, filters);
      const readable = new Set(selected.map((f) => f.field.id));
      const all = paging.pageSize < 0;
      const offset = paging.cursor || all ? 0 : paging.page;
      const need = all ? undefined : offset + paging.pageSize + 1;
      const before = paging.cursor ? decodeCursor(paging.cursor) : undefined;

      let candidates: Spot[];
      if (filters.uuids) {
        const wanted = [...new Set(filters.uuids.map((u) => u.toLowerCase()))];
        candidates = (await repository.spotsNamed(wanted, readable)).filter(
          (s) => matches(s, filters) && (!before || sortKey(s) < before),
        );
      } else {
        const perField: Spot[][] = [];
        for (let i = 0; i < selected.length; i += 8) {
          perField.push(
            ...(await Promise.all(selected.slice(i, i + 8).map((f) => fieldSpots(f.field.id, filters, need, before)))),
          );
        }
        candidates = perField.flat();
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
  };
}
