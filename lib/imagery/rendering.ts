// Rendering (spec 2, GET /api/geoserver/v2; docs/imagery.md): the date's stored raster, warped and
// encoded by render.ts. Rules only: the repository and the gate are parameters.

import type { Principal } from '../auth/principal';
import type { FieldGate } from '../authz/gate';
import { Invalid, NotFound } from '../errors';
import { onFirstUse, preload } from '../util/first-use';
import { projections } from './crs';
import { projDefinition } from './epsg';
import { type Operation, SENTINEL2 } from './layers';
import { decodeRaster } from './raster';
import type { RenderedImage } from './render';
import type { ScaleTemplate } from './scales';
import { type ImageryRepository, listedDates, operationsOf, type RenderParams, readableField } from './service';

/** The warping and the encoders (fast-png, the GeoTIFF writer): every image needs them, preloaded as a request starts. */
const renderer = /* @__PURE__ */ onFirstUse(() => import('./render'));

/** Largest image answered: Lambda answers at most 6 MB, and files travel base64-encoded (4/3). */
export const MAX_IMAGE_BYTES = 4_500_000;

export function imageryRendering({
  repository,
  gate,
  scales,
  loadEpsg = async (epsg) => projDefinition(epsg) !== undefined,
  maxImageBytes = MAX_IMAGE_BYTES,
}: {
  /**
   * Makes an EPSG code's definition known; false for a code the registry does not have (the
   * built-in codes only by default; the geoserver function loads the registry: epsg-catalogue.ts).
   */
  loadEpsg?: (epsg: number) => Promise<boolean>;
  repository: Pick<ImageryRepository, 'dates' | 'raster'>;
  gate: FieldGate;
  /** The caller's scale template of an id (notFound when not the caller's). */
  scales: (principal: Principal, id: number) => Promise<ScaleTemplate>;
  maxImageBytes?: number;
}) {
  /**
   * GET /api/geoserver/v2: one operation of one date of a layer, as an image. A layer made from a
   * file or a sampling has one operation (its name); its colour scale and encoded PNG span the
   * date's min and max (given by dates v3).
   */
  async function render(principal: Principal, params: RenderParams): Promise<RenderedImage> {
    // loaded while the field, its dates and the raster are read; a mask or another EPSG than the
    // scene's needs proj4 too
    preload(renderer);
    if (params.transparent || params.epsg !== undefined) preload(projections);
    if (params.epsg !== undefined && !(await loadEpsg(params.epsg))) {
      throw new Invalid(`epsg ${params.epsg} is not a code of the EPSG registry`);
    }
    await readableField(gate, principal, params.field_id);
    const satellite = params.layer_name === SENTINEL2;
    const operation = operationsOf(params.layer_name).find((entry) => entry.operation === params.operation)?.operation;
    if (!operation) throw new NotFound(`The layer ${params.layer_name} has no operation ${params.operation}`);
    if (operation === 'rgb1' && params.format === 'image/encoded') {
      throw new Invalid('image/encoded carries index values; rgb1 is served as image/png or image/tiff');
    }
    const scale =
      params.scale_template_id === undefined ? undefined : await scales(principal, params.scale_template_id);
    if (
      scale &&
      (params.format !== 'image/png' || scale.layerName !== params.layer_name || scale.operation !== operation)
    ) {
      throw new Invalid(`scale template ${scale.id} colours PNGs of ${scale.layerName} ${scale.operation}`);
    }
    const day = params.date.slice(0, 10);
    const entry = (await listedDates(repository, params.field_id, params.layer_name)).find(
      (candidate) => candidate.day === day,
    );
    if (!entry)
      throw new NotFound(
        satellite
          ? `The layer ${params.layer_name} has no image of ${params.date}`
          : `The field has no layer ${params.layer_name} of ${params.date}`,
      );
    const bytes = await repository.raster(entry.objectKey);
    if (!bytes) throw new NotFound(`The layer ${params.layer_name} has no image of ${params.date}`);
    const request = {
      format: params.format,
      transparent: params.transparent,
      ...(scale ? { scale } : {}),
      ...(params.epsg !== undefined ? { epsg: params.epsg } : {}),
      ...(params.bbox ? { bbox: params.bbox, width: params.width!, height: params.height! } : {}),
    };
    const raster = decodeRaster(bytes);
    const range = { min: entry.min, max: entry.max };
    const { renderScene, renderValues } = await renderer();
    const image =
      'layer' in raster
        ? await renderValues(raster.layer, request, { colour: range, encoded: range })
        : await renderScene(raster.scene, { ...request, operation: operation as Operation });
    if (image.body.length > maxImageBytes) {
      throw new Invalid(
        `the image would take ${image.body.length} bytes, more than the ${maxImageBytes} an answer may carry: ask for a smaller width and height`,
      );
    }
    return image;
  }

  return { render };
}
