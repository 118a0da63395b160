// What a listing by farm reads: the farms the caller reads whole (one query of a farm's index each,
// however many fields they hold), the fields it reads one by one in the others (shared alone), and
// which of the fields an index answers the caller reads. A listing built on it answers exactly what
// one of every readable field would (lib/authz/reach.ts: a field of its farm, not deleted, with a
// grant that lets the caller see it), reading the profiles of the fields it answers only.
import type { Principal } from '../auth/principal';
import { type Farm, type Field, type FieldRef, fieldNamedBy } from '../platform/model';
import { mapLimit } from '../util/map-limit';
import { can } from './access';
import type { FarmScope, FieldGate } from './gate';

/** A record of a field that may name it (lib/platform/model.ts `fieldNamedBy`). */
type NamingRecord = Parameters<typeof fieldNamedBy>[0] & { farmId: number };

export interface FarmReach {
  /** The farms read whole, each once, by id. */
  wholeFarms: Farm[];
  /**
   * The fields reached one by one in farms not read whole (a share of the field), each with the farm
   * its grant names (what an index keyed by farm is asked with), by id.
   */
  singleFields: Array<{ fieldId: number; farm: Farm }>;
  /** Those of `singleFields` the caller reads (`listedFarm`: no field read), by id. */
  readableSingleFieldIds: number[];
  /** Those of these fields the caller reads, with their farm (their profiles read once, in batches). */
  readable(fieldIds: readonly number[]): Promise<Map<number, { field: Field; farm: Farm }>>;
  /**
   * The fields of these records (labours, rotations) that the caller reads, with their farm, by field
   * id: a record that names its field (`fieldNamedBy`) is answered from its farm (`listedFarm`), no
   * field read; the fields of the others are read (`readable`).
   */
  fieldsOf(records: ReadonlyArray<NamingRecord>): Promise<Map<number, { field: FieldRef; farm: Farm }>>;
  /**
   * The farm of a field that a farm's index (or a field's own, for a field reached alone) answered as
   * of farm `farmId`, when the caller reads that field; undefined when it does not. Reads nothing: the
   * grants let it read the field, and the farm (read with the grants, strongly consistent) does not
   * count it among its fields being deleted. Fields never change farms, and what hangs from a field
   * is written only while it exists.
   */
  listedFarm(fieldId: number, farmId: number): Farm | undefined;
  /**
   * The fields of one farm the caller reads, by id, ascending, without reading a field: the farm's
   * membership when it reads the farm whole, else the fields shared with it alone; then `listedFarm`.
   */
  fieldIdsIn(farmId: number): Promise<number[]>;
  /** Every field the caller reads, by id, ascending, as `fieldIdsIn` finds them (a query per farm read whole). */
  readableFieldIds(): Promise<number[]>;
}

/**
 * The caller's reach by farm, of the farms `keepFarm` keeps (a listing's farm filters); with
 * `farmIds`, of those farms only, the others not read at all (a filter by farm id).
 */
export async function farmReach(
  gate: Pick<FieldGate, 'scope' | 'fieldsById' | 'fieldIdsOfFarm'>,
  principal: Principal,
  keepFarm: (farm: Farm) => boolean = () => true,
  farmIds?: readonly number[],
): Promise<FarmReach> {
  const byFarm = new Map<number, FarmScope[]>();
  for (const scope of await gate.scope(principal, farmIds)) {
    if ((farmIds && !farmIds.includes(scope.farm.id)) || !keepFarm(scope.farm)) continue;
    byFarm.set(scope.farm.id, [...(byFarm.get(scope.farm.id) ?? []), scope]);
  }
  const whole = [...byFarm.values()].filter((scopes) => scopes.some((s) => s.fieldIds === 'all'));
  const singleFields = new Map<number, Farm>();
  for (const scopes of byFarm.values()) {
    if (scopes.some((s) => s.fieldIds === 'all')) continue;
    for (const s of scopes)
      for (const fieldId of s.fieldIds === 'all' ? [] : s.fieldIds) singleFields.set(fieldId, s.farm);
  }
  // a farm reached twice (its own and a supervised user's): any way that reaches the field lets it read
  const listedFarm = (fieldId: number, farmId: number): Farm | undefined => {
    const scopes = byFarm.get(farmId) ?? [];
    const farm = scopes[0]?.farm;
    const reads =
      farm !== undefined &&
      !farm.deletingFieldIds.includes(fieldId) &&
      scopes.some((s) => (s.fieldIds === 'all' || s.fieldIds.includes(fieldId)) && can(s.accessTo(fieldId), 'read'));
    return reads ? farm : undefined;
  };
  const profiles = new Map<number, Field | undefined>();
  const readable = async (fieldIds: readonly number[]) => {
    const missing = [...new Set(fieldIds)].filter((id) => !profiles.has(id));
    if (missing.length) {
      // eventually consistent (half the read units): the records these fields are asked about
      // come from the farms' indexes, which are; the grants come from `scope`, read strongly
      const found = await gate.fieldsById(missing, { consistent: false });
      for (const id of missing) profiles.set(id, found.get(id));
    }
    const out = new Map<number, { field: Field; farm: Farm }>();
    for (const id of fieldIds) {
      const field = profiles.get(id);
      const farm = field && listedFarm(field.id, field.farmId);
      if (field && farm) out.set(id, { field, farm });
    }
    return out;
  };
  const fieldIdsIn = async (farmId: number) => {
    const scopes = byFarm.get(farmId) ?? [];
    const ids = scopes.some((s) => s.fieldIds === 'all')
      ? await gate.fieldIdsOfFarm(farmId)
      : scopes.flatMap((s) => (s.fieldIds === 'all' ? [] : s.fieldIds));
    return [...new Set(ids)].filter((id) => listedFarm(id, farmId)).sort((a, b) => a - b);
  };
  return {
    wholeFarms: whole.map((scopes) => scopes[0]!.farm).sort((a, b) => a.id - b.id),
    singleFields: [...singleFields].sort(([a], [b]) => a - b).map(([fieldId, farm]) => ({ fieldId, farm })),
    readableSingleFieldIds: [...singleFields]
      .filter(([fieldId, farm]) => listedFarm(fieldId, farm.id))
      .map(([fieldId]) => fieldId)
      .sort((a, b) => a - b),
    readable,
    async fieldsOf(records) {
      const out = new Map<number, { field: FieldRef; farm: Farm }>();
      const unnamed: number[] = [];
      for (const record of records) {
        const field = fieldNamedBy(record);
        if (!field) unnamed.push(record.fieldId);
        else if (!out.has(field.id)) {
          const farm = listedFarm(field.id, record.farmId);
          if (farm) out.set(field.id, { field, farm });
        }
      }
      for (const [id, scope] of await readable(unnamed.filter((id) => !out.has(id)))) out.set(id, scope);
      return out;
    },
    listedFarm,
    fieldIdsIn,
    async readableFieldIds() {
      const perFarm = await mapLimit([...byFarm.keys()], 8, fieldIdsIn);
      return perFarm.flat().sort((a, b) => a - b);
    },
  };
}
