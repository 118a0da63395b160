// The console's map (MapLibre GL JS): the fields as outlines with their names, the selected one
// highlighted; the chosen layer's image of a date as map tiles from GET /api/geoserver/v2 in EPSG
// 3857 (a raster source whose tile URL carries {bbox-epsg-3857}: the API renders each 256-pixel tile,
// transparent outside the field); the field's spots and sampling points with their names. No
// basemap unless the deployment names one (docs/console.md): the map works offline. Names are
// HTML markers, as the map has no glyphs to draw text with offline.
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { Map as MapLibre, Marker, NavigationControl, ScaleControl, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { boundsOf, type Geometry, labelPoint } from './wkt';

// the worker is a file beside the console's script, not wherever MapLibre's module was
setWorkerUrl(new URL(workerUrl, import.meta.url).href);

export interface MapField {
  id: number;
  name: string;
  farm: string;
  geometry: Geometry;
}

export interface MapPoint {
  name: string;
  kind: 'spot' | 'sample';
  geometry: Geometry;
}

export interface ImageryRequest {
  fieldId: number;
  layer: string;
  operation: string;
  date: string;
  scaleTemplateId?: number;
}

/** Colours of the map; the selected outline's is one no layer's scale has (tests find it in screenshots). */
export const MAP_COLOURS = {
  background: '#eceee8',
  outline: '#5a6b7b',
  selected: '#1446ff',
  fill: '#7d93a8',
  spot: '#7a2bc4',
  sample: '#d4790e',
} as const;

type Bounds = [number, number, number, number];

const featureCollection = (features: unknown[]) => ({ type: 'FeatureCollection' as const, features });

export class ConsoleMap {
  readonly map: MapLibre;
  private readonly ready: Promise<void>;
  private labels: Marker[] = [];
  private pointLabels: Marker[] = [];
  private fields: MapField[] = [];
  private selected: number | undefined;

  constructor(
    container: HTMLElement,
    private readonly options: {
      apiBase: string;
      token: () => string | undefined;
      basemap?: string;
      basemapAttribution?: string;
      onSelect: (fieldId: number) => void;
    },
  ) {
    const style: StyleSpecification = {
      version: 8,
      sources: {
        fields: { type: 'geojson', data: featureCollection([]), promoteId: 'id' },
        points: { type: 'geojson', data: featureCollection([]) },
        ...(options.basemap
          ? {
              basemap: {
                type: 'raster',
                tiles: [options.basemap],
                tileSize: 256,
                ...(options.basemapAttribution ? { attribution: options.basemapAttribution } : {}),
              },
            }
          : {}),
      },
      layers: [
        { id: 'background', type: 'background', paint: { 'background-color': MAP_COLOURS.background } },
        ...(options.basemap ? [{ id: 'basemap', type: 'raster' as const, source: 'basemap' }] : []),
        {
          id: 'fields-fill',
          type: 'fill',
          source: 'fields',
          paint: {
            'fill-color': MAP_COLOURS.fill,
            // the selected field's fill gives way to its imagery
            'fill-opacity': ['case', ['boolean', ['feature-state', 'selected'], false], 0, 0.18],
          },
        },
        {
          id: 'fields-outline',
          type: 'line',
          source: 'fields',
          paint: {
            'line-color': [
              'case',
              ['boolean', ['feature-state', 'selected'], false],
              MAP_COLOURS.selected,
              MAP_COLOURS.outline,
            ],
            'line-width': ['case', ['boolean', ['feature-state', 'selected'], false], 3, 1.5],
          },
        },
        {
          id: 'points',
          type: 'circle',
          source: 'points',
          paint: {
            'circle-radius': 5,
            'circle-color': ['match', ['get', 'kind'], 'spot', MAP_COLOURS.spot, MAP_COLOURS.sample],
            'circle-stroke-color': '#ffffff',
            'circle-stroke-width': 1.5,
          },
        },
      ],
    };
    this.map = new MapLibre({
      container,
      style,
      center: [-60, -34],
      zoom: 3,
      attributionControl: options.basemapAttribution ? { compact: false } : false,
      // the tiles of the API (imagery) carry the bearer token; the basemap's do not
      transformRequest: (url) => {
        const token = this.options.token();
        return url.startsWith(this.options.apiBase) && token
          ? { url, headers: { Authorization: `Bearer ${token}` } }
          : { url };
      },
    });
    this.map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    this.map.addControl(new ScaleControl({}), 'bottom-right');
    this.map.on('click', 'fields-fill', (event) => {
      const id = event.features?.[0]?.properties?.id;
      if (typeof id === 'number') this.options.onSelect(id);
    });
    this.map.on('mouseenter', 'fields-fill', () => {
      this.map.getCanvas().style.cursor = 'pointer';
    });
    this.map.on('mouseleave', 'fields-fill', () => {
      this.map.getCanvas().style.cursor = '';
    });
    this.ready = new Promise((resolve) => this.map.once('load', () => resolve()));
  }

  /** The fields on the map, each named; the view takes them all in. */
  async showFields(fields: MapField[]): Promise<void> {
    await this.ready;
    this.fields = fields;
    this.source('fields').setData(
      featureCollection(
        fields.map((field) => ({
          type: 'Feature',
          id: field.id,
          geometry: field.geometry,
          properties: { id: field.id, name: field.name, farm: field.farm },
        })),
      ) as never,
    );
    for (const label of this.labels) label.remove();
    this.labels = fields.map((field) => this.label(labelPoint(field.geometry), field.name, 'field-label'));
    if (fields.length) this.fit(unionOf(fields.map((f) => boundsOf(f.geometry))));
  }

  /** Highlights a field and brings it into view. */
  async select(fieldId: number): Promise<void> {
    await this.ready;
    if (this.selected !== undefined)
      this.map.setFeatureState({ source: 'fields', id: this.selected }, { selected: false });
    this.selected = fieldId;
    this.map.setFeatureState({ source: 'fields', id: fieldId }, { selected: true });
    const field = this.fields.find((f) => f.id === fieldId);
    if (field) this.fit(boundsOf(field.geometry));
  }

  /** The field's spots and sampling points, named. */
  async showPoints(points: MapPoint[]): Promise<void> {
    await this.ready;
    this.source('points').setData(
      featureCollection(
        points.map((point) => ({
          type: 'Feature',
          geometry: { type: 'Point', coordinates: labelPoint(point.geometry) },
          properties: { name: point.name, kind: point.kind },
        })),
      ) as never,
    );
    for (const label of this.pointLabels) label.remove();
    this.pointLabels = points.map((point) =>
      this.label(labelPoint(point.geometry), point.name, `point-label point-label-${point.kind}`, [0, -13]),
    );
  }

  /** Draws a layer's image of a date over the field, tile by tile; undefined removes it. */
  async showImagery(request: ImageryRequest | undefined): Promise<void> {
    await this.ready;
    if (this.map.getLayer('imagery')) this.map.removeLayer('imagery');
    if (this.map.getSource('imagery')) this.map.removeSource('imagery');
    if (!request) return;
    const field = this.fields.find((f) => f.id === request.fieldId);
    if (!field) return;
    const query = new URLSearchParams({
      field_id: String(request.fieldId),
      layer_name: request.layer,
      operation: request.operation,
      date: request.date,
      format: 'image/png',
      transparent: 'true',
      epsg: '3857',
      width: String(TILE_PIXELS),
      height: String(TILE_PIXELS),
      ...(request.scaleTemplateId !== undefined ? { scale_template_id: String(request.scaleTemplateId) } : {}),
    });
    const [west, south, east, north] = boundsOf(field.geometry);
    this.map.addSource('imagery', {
      type: 'raster',
      // MapLibre writes each tile's extent in EPSG 3857 for {bbox-epsg-3857}
      tiles: [`${this.options.apiBase}api/geoserver/v2?${query}&bbox={bbox-epsg-3857}`],
      tileSize: 256,
      // tiles are asked for over the field only
      bounds: [west, south, east, north],
    });
    this.map.addLayer(
      {
        id: 'imagery',
        type: 'raster',
        source: 'imagery',
        paint: { 'raster-fade-duration': 0, 'raster-resampling': 'nearest' },
      },
      'fields-outline',
    );
  }

  /** Resolves once every tile in view is drawn. */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      if (this.map.loaded() && this.map.areTilesLoaded()) resolve();
      else this.map.once('idle', () => resolve());
    });
  }

  private source(id: string) {
    return this.map.getSource(id) as unknown as { setData(data: unknown): void };
  }

  private label(at: [number, number], text: string, className: string, offset: [number, number] = [0, 0]): Marker {
    const element = document.createElement('div');
    element.className = className;
    element.textContent = text;
    return new Marker({ element, anchor: 'center', offset }).setLngLat(at).addTo(this.map);
  }

  private fit(bounds: Bounds): void {
    this.map.fitBounds(
      [
        [bounds[0], bounds[1]],
        [bounds[2], bounds[3]],
      ],
      { padding: 48, maxZoom: 17, duration: 0 },
    );
  }
}

/** Pixels of each imagery tile: twice the tile's size on screens of two device pixels a CSS pixel. */
const TILE_PIXELS = Math.min(512, Math.round(256 * Math.max(1, globalThis.devicePixelRatio || 1)));

const unionOf = (all: Bounds[]): Bounds => [
  Math.min(...all.map((b) => b[0])),
  Math.min(...all.map((b) => b[1])),
  Math.max(...all.map((b) => b[2])),
  Math.max(...all.map((b) => b[3])),
];
