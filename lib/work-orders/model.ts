// Work orders (spec 3): a date, notes and recommendations on environmental conditions over labours
// the caller reads. The recommendation catalogue and its labour-type rule are the spec's table.
import { as, type EntityOf, entity, nullable, num, str, strOr } from '../db/entity';

export interface RecommendationType {
  id: number;
  name: string;
  labourTypeIds: number[];
}

/** Spec 3, "Recommendation types". */
export const RECOMMENDATION_TYPES: readonly RecommendationType[] = [
  { id: 1, name: 'Temperatura', labourTypeIds: [1] },
  { id: 2, name: 'Velocidad de avance', labourTypeIds: [2, 3] },
  { id: 3, name: 'Dirección del viento', labourTypeIds: [1] },
  { id: 4, name: 'Velocidad del viento', labourTypeIds: [1] },
  { id: 5, name: 'Humedad', labourTypeIds: [1, 2, 3] },
  { id: 6, name: 'Profundidad', labourTypeIds: [3] },
];
export const recommendationType = (id: number) => RECOMMENDATION_TYPES.find((t) => t.id === id);

export interface Recommendation {
  typeId: number;
  value: string;
}

export const WorkOrder = entity('work_order', {
  uuid: str('work_order_uuid'),
  ownerId: num('owner_id'),
  name: nullable(str('name')),
  notes: nullable(str('notes')),
  date: str('date'),
  yeargroup: num('yeargroup'),
  labourUuids: as<string[]>('labour_uuids', []),
  recommendations: as<Recommendation[] | null>('recommendations', null),
  /** Owners of its labours' fields other than its creator: they read it (pointers written with it). */
  fieldOwnerIds: as<number[]>('field_owner_ids', []),
  /** What the create sent (lib/util/fingerprint.ts): its uuid sent again with another body conflicts. '' when not known. */
  createdWith: strOr('created_with', ''),
  createdAt: str('created_at'),
  updatedAt: str('updated_at'),
});
export type WorkOrder = EntityOf<typeof WorkOrder>;

export const WORK_ORDER_LIMITS = { LABOURS: 50, RECOMMENDATIONS: 20, NAME: 200, NOTES: 5000, VALUE: 500 } as const;

/**
 * Why recommendations cannot go with labours of these types: a recommendation is accepted only
 * when at least one selected labour has a type listed in its labourTypeIds (spec 3).
 */
export function recommendationProblems(recommendations: Recommendation[], labourTypeIds: number[]): string[] {
  const present = new Set(labourTypeIds);
  return recommendations.flatMap((r, index) => {
    const type = recommendationType(r.typeId);
    if (!type) return [`recomendations[${index}]: no recommendation type ${r.typeId}`];
    if (!type.labourTypeIds.some((id) => present.has(id))) {
      return [
        `recomendations[${index}]: '${type.name}' applies to labours of type ${type.labourTypeIds.join(' or ')}, and none of the selected labours is`,
      ];
    }
    return [];
  });
}
