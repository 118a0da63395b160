// A user's scale templates (spec 2, GET /api/layers/scale_template; create, change and delete are
// ours, docs/imagery.md): the user's own, shared by the extensions acting for the user. Rules only:
// the repository is a parameter.
import type { Principal } from '../auth/principal';
import { Conflict, Invalid, NotFound } from '../errors';
import { SATELLITE_OPERATIONS, SENTINEL2 } from './layers';
import { checkTemplate, SCALE_LIMITS, type ScaleTemplate } from './scales';
import { layerTypes } from './types';

export interface ScaleRepository {
  list(ownerId: number): Promise<ScaleTemplate[]>;
  get(ownerId: number, id: number): Promise<ScaleTemplate | undefined>;
  nextId(): Promise<number>;
  /** Writes the template; `isNew` refuses to overwrite one that exists. */
  put(template: ScaleTemplate, isNew: boolean): Promise<void>;
  remove(ownerId: number, id: number): Promise<boolean>;
}

export type ScaleInput = Omit<ScaleTemplate, 'id' | 'ownerId'>;

const notFound = (id: number) => new NotFound(`scale template ${id} not found`);

function checkLayer(template: ScaleInput): void {
  if (!layerTypes().some((type) => type.nombre === template.layerName))
    throw new Invalid(`layer_name ${template.layerName} is not a layer type (GET /api/layers/types)`);
  if (
    template.layerName === SENTINEL2 &&
    !SATELLITE_OPERATIONS.some((o) => o.operation === template.operation && o.operation !== 'rgb1')
  ) {
    throw new Invalid(`the operation of a ${SENTINEL2} scale is one of its indices: ndvi1, gndvi1, msavi2, ndre`);
  }
  if (template.layerName !== SENTINEL2 && template.operation !== template.layerName) {
    throw new Invalid(
      `a layer made from a file or a sampling has one operation, its name: send operation ${template.layerName}`,
    );
  }
}

export function scaleTemplates({ repository }: { repository: ScaleRepository }) {
  async function owned(principal: Principal, id: number): Promise<ScaleTemplate> {
    const template = await repository.get(principal.user.id, id);
    if (!template) throw notFound(id);
    return template;
  }
  return {
    list: (principal: Principal) => repository.list(principal.user.id),
    owned,
    async create(principal: Principal, input: ScaleInput): Promise<ScaleTemplate> {
      checkLayer(input);
      checkTemplate(input);
      if ((await repository.list(principal.user.id)).length >= SCALE_LIMITS.PER_USER) {
        throw new Conflict(`a user keeps at most ${SCALE_LIMITS.PER_USER} scale templates`);
      }
      const template = { ...input, id: await repository.nextId(), ownerId: principal.user.id };
      await repository.put(template, true);
      return template;
    },
    async change(principal: Principal, id: number, changes: Partial<ScaleInput>): Promise<ScaleTemplate> {
      const current = await owned(principal, id);
      const template = {
        ...current,
        ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
      } as ScaleTemplate;
      checkLayer(template);
      checkTemplate(template);
      await repository.put(template, false);
      return template;
    },
    async remove(principal: Principal, id: number): Promise<void> {
      if (!(await repository.remove(principal.user.id, id))) throw notFound(id);
    },
  };
}
