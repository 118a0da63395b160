// The web console (GET /console; docs/console.md): the user's farms and fields on a map; for the
// field selected (in the list or on the map), its imagery layers and dates (GET /api/layers/dates/v3),
// the chosen one drawn over the map as tiles of GET /api/geoserver/v2 with its legend, its NDVI series
// (GET /api/fields/ndvi) as a chart, its spots and sampling points, and the labours of its current
// campaign. Everything goes through the API with the bearer token pasted in the page.
import 'maplibre-gl/dist/maplibre-gl.css';
import './style.css';
import { ApiError, type ConsoleApi, consoleApi, type DateEntry, type FieldList, type LayerDates } from './api';
import { NdviChart } from './chart';
import { type Legend, legendOf, type ScaleTemplate } from './legend';
import { legendElement } from './legend-view';
import { ConsoleMap, type MapField, type MapPoint } from './map';
import { apiBase, forgetToken, initialToken, saveToken } from './token';
import { parseWkt } from './wkt';

const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
const setting = (name: string) =>
  document.querySelector<HTMLMetaElement>(`meta[name="surco-${name}"]`)?.content || undefined;

/** Labour types and statuses (spec 3, "Labour (as listed)"). */
const LABOUR_TYPES: Record<number, string> = { 1: 'Application', 2: 'Harvest', 3: 'Sowing', 4: 'Other labour' };
const LABOUR_STATUS: Record<number, string> = { 1: 'planned', 2: 'executed', 3: 'cancelled' };
/** The current campaign: the calendar year (lib/fields/current-shape.ts). */
const currentCampaign = () => new Date().getUTCFullYear();

const base = apiBase();
let token = initialToken();
const api: ConsoleApi = consoleApi(base, () => token ?? '');
const map = new ConsoleMap($('#map'), {
  apiBase: base,
  token: () => token,
  basemap: setting('basemap'),
  basemapAttribution: setting('basemap-attribution'),
  onSelect: (id) => void selectField(id),
});
const chart = new NdviChart($('#ndvi-chart'));

let fields: MapField[] = [];
let templates: ScaleTemplate[] | undefined;
/** The field whose panel is shown: answers for another (an earlier click) are dropped. */
let current: number | undefined;

function status(text: string): void {
  $('#status').textContent = text;
}

const describe = (error: unknown): string =>
  error instanceof ApiError && (error.status === 401 || error.status === 403)
    ? `the API refused the token (${error.status}): paste a valid one`
    : `the API answered ${error instanceof Error ? error.message : String(error)}`;

// --- the token ---------------------------------------------------------------------------------

const tokenInput = $<HTMLInputElement>('#token');
$<HTMLFormElement>('#token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = tokenInput.value.trim();
  if (!value) return;
  saveToken(value);
  token = value;
  void loadFields();
});
$('#forget').addEventListener('click', () => {
  forgetToken();
  token = undefined;
  tokenInput.value = '';
  fields = [];
  current = undefined;
  $('#farms').replaceChildren();
  $('#field').hidden = true;
  void map.showFields([]);
  void map.showPoints([]);
  void map.showImagery(undefined);
  status('Paste a token to see its user’s fields.');
});

// --- farms and fields --------------------------------------------------------------------------

async function loadFields(): Promise<void> {
  if (!token) {
    status('Paste a token to see its user’s fields.');
    return;
  }
  tokenInput.value = token;
  status('Loading fields…');
  let list: FieldList;
  try {
    list = await api.fields();
  } catch (error) {
    status(`Cannot list the fields: ${describe(error)}.`);
    return;
  }
  const owners = [
    { name: list.user.user_name, farms: list.user.farms },
    ...Object.values(list.supervised ?? {}).map((user) => ({
      name: `${user.user_name} (supervised)`,
      farms: user.farms,
    })),
  ];
  fields = [];
  const farmsElement = $('#farms');
  farmsElement.replaceChildren();
  for (const owner of owners) {
    for (const farm of Object.values(owner.farms)) {
      const section = document.createElement('div');
      section.className = 'farm';
      const title = document.createElement('h4');
      title.textContent = owners.length > 1 ? `${farm.name} · ${owner.name}` : farm.name;
      const items = document.createElement('ul');
      for (const field of Object.values(farm.fields)) {
        const geometry = parseWkt(field.shapes.current.polygon);
        if (!geometry) continue;
        fields.push({ id: field.id, name: field.name, farm: farm.name, geometry });
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.fieldId = String(field.id);
        button.textContent = `${field.name} · ${field.shapes.current.area.toFixed(1)} ha`;
        button.addEventListener('click', () => void selectField(field.id));
        item.append(button);
        items.append(item);
      }
      section.append(title, items);
      farmsElement.append(section);
    }
  }
  await map.showFields(fields);
  status(fields.length ? `${fields.length} field(s): pick one in the list or on the map.` : 'This user has no fields.');
}

// --- the selected field ------------------------------------------------------------------------

async function selectField(id: number): Promise<void> {
  const field = fields.find((f) => f.id === id);
  if (!field) return;
  current = id;
  for (const button of document.querySelectorAll<HTMLButtonElement>('#farms button')) {
    button.setAttribute('aria-current', String(button.dataset.fieldId === String(id)));
  }
  $('#field').hidden = false;
  $('#field-name').textContent = field.name;
  $('#field-facts').textContent = `${field.farm} · field ${id}`;
  await map.select(id);
  await Promise.all([showImagery(id), showNdvi(id), showPoints(id), showLabours(id)]);
}

async function showImagery(id: number): Promise<void> {
  const note = $('#imagery-status');
  const selects = {
    layer: $<HTMLSelectElement>('#layer'),
    operation: $<HTMLSelectElement>('#operation'),
    date: $<HTMLSelectElement>('#date'),
    scale: $<HTMLSelectElement>('#scale'),
  };
  for (const select of Object.values(selects)) select.replaceChildren();
  $('#legend').replaceChildren();
  await map.showImagery(undefined);
  note.textContent = 'Loading the layers…';
  let layers: LayerDates['layers'];
  try {
    [layers, templates] = await Promise.all([
      api.dates(id).then((answer) => answer.layers),
      templates ? Promise.resolve(templates) : api.scaleTemplates().then((answer) => answer.scale_templates),
    ]);
  } catch (error) {
    if (current === id) note.textContent = `Cannot list the layers: ${describe(error)}.`;
    return;
  }
  if (current !== id) return;
  const names = Object.keys(layers).filter((name) => layers[name]!.dates.length > 0);
  if (names.length === 0) {
    note.textContent = 'No image of this field yet (a new field’s scenes take a minute): select it again later.';
    return;
  }
  const option = (select: HTMLSelectElement, value: string, text: string) => {
    const element = document.createElement('option');
    element.value = value;
    element.textContent = text;
    select.append(element);
  };
  const fillLayer = () => {
    const layer = layers[selects.layer.value]!;
    selects.operation.replaceChildren();
    selects.date.replaceChildren();
    for (const { operation, name } of layer.operations) option(selects.operation, operation, name);
    // newest first (spec); a clear date is the first shown
    for (const entry of layer.dates)
      option(selects.date, entry.date, `${entry.date.slice(0, 10)}${entry.cloudy ? ' ☁' : ''}`);
    const clear = layer.dates.find((entry) => !entry.cloudy) ?? layer.dates[0]!;
    selects.date.value = clear.date;
    if (layer.operations.some((o) => o.operation === 'ndvi1')) selects.operation.value = 'ndvi1';
    fillScales();
  };
  const fillScales = () => {
    selects.scale.replaceChildren();
    option(selects.scale, '', 'default');
    for (const template of templates ?? []) {
      if (template.layer_name === selects.layer.value && template.operation === selects.operation.value)
        option(selects.scale, String(template.scale_template_id), template.template_name);
    }
  };
  const draw = async () => {
    const layer = layers[selects.layer.value]!;
    const entry = layer.dates.find((d) => d.date === selects.date.value) as DateEntry;
    const template = templates?.find((t) => String(t.scale_template_id) === selects.scale.value);
    const legend: Legend = legendOf(selects.operation.value, entry, template);
    $('#legend').replaceChildren(legendElement(legend));
    chart.mark(entry.date);
    note.textContent = 'Drawing the image…';
    await map.showImagery({
      fieldId: id,
      layer: selects.layer.value,
      operation: selects.operation.value,
      date: entry.date,
      ...(template ? { scaleTemplateId: template.scale_template_id } : {}),
    });
    await map.idle();
    if (current === id)
      note.textContent = `Image of ${entry.date.slice(0, 10)} drawn${entry.cloudy ? ' (cloudy date)' : ''}.`;
  };
  for (const name of names) option(selects.layer, name, name);
  selects.layer.value = names.includes('sentinel2') ? 'sentinel2' : names[0]!;
  fillLayer();
  selects.layer.onchange = () => {
    fillLayer();
    void draw();
  };
  selects.operation.onchange = () => {
    fillScales();
    void draw();
  };
  selects.date.onchange = () => void draw();
  selects.scale.onchange = () => void draw();
  await draw();
}

async function showNdvi(id: number): Promise<void> {
  try {
    const answer = await api.ndvi(id);
    if (current === id) chart.show(answer.ndvi);
  } catch (error) {
    if (current === id) $('#ndvi-chart').textContent = `Cannot read the NDVI series: ${describe(error)}.`;
  }
}

async function showPoints(id: number): Promise<void> {
  const list = $('#points');
  list.replaceChildren();
  await map.showPoints([]);
  const points: MapPoint[] = [];
  const lines: string[] = [];
  const [spots, samplings] = await Promise.allSettled([api.spots(id), api.samplings(id)]);
  if (current !== id) return;
  if (spots.status === 'fulfilled') {
    for (const spot of spots.value.data) {
      const geometry = parseWkt(spot.spot_shape);
      const name = spot.spot_name || spot.code;
      if (geometry) points.push({ name, kind: 'spot', geometry });
      lines.push(`Spot ${name}`);
    }
  } else lines.push(`Cannot list the spots: ${describe(spots.reason)}.`);
  if (samplings.status === 'fulfilled') {
    for (const sampling of samplings.value.data as unknown as SamplingAnswer[]) {
      const groups = new Map((sampling.groups ?? []).map((g) => [g.group_uuid, g.group_data?.sampling?.name]));
      const samplingPoints = sampling.points ?? [];
      for (const point of samplingPoints) {
        const geometry = parseWkt(point.geometry);
        if (geometry)
          points.push({ name: groups.get(point.group_uuid) || sampling.sampling_name, kind: 'sample', geometry });
      }
      lines.push(`Sampling ${sampling.sampling_name}: ${samplingPoints.length} point(s)`);
    }
  } else lines.push(`Cannot list the samplings: ${describe(samplings.reason)}.`);
  if (lines.length === 0) lines.push('None.');
  for (const line of lines) {
    const item = document.createElement('li');
    item.textContent = line;
    list.append(item);
  }
  await map.showPoints(points);
}

/** The parts of a sampling (GET /api/sampling) the console shows. */
interface SamplingAnswer {
  sampling_name: string;
  groups?: Array<{ group_uuid: string; group_data?: { sampling?: { name?: string } } }>;
  points?: Array<{ geometry: string; group_uuid: string }>;
}

async function showLabours(id: number): Promise<void> {
  const campaign = currentCampaign();
  $('#labours-title').textContent = `Labours of campaign ${campaign}`;
  const list = $('#labours');
  list.replaceChildren();
  try {
    const answer = await api.labours(id, campaign);
    if (current !== id) return;
    const labours = [...answer.data].sort((a, b) => a.date.localeCompare(b.date));
    for (const labour of labours) {
      const item = document.createElement('li');
      const crop = labour.rotation?.crop_name ? ` · ${labour.rotation.crop_name}` : '';
      const inputs = 'inputs' in labour && Array.isArray(labour.inputs) ? labour.inputs : [];
      const names = inputs.map((input) => (input as { input_name?: string }).input_name).filter(Boolean);
      item.textContent = `${labour.date} · ${LABOUR_TYPES[labour.labour_type_id] ?? `type ${labour.labour_type_id}`} (${
        LABOUR_STATUS[labour.status] ?? labour.status
      })${crop}${names.length ? ` · ${names.join(', ')}` : ''}`;
      list.append(item);
    }
    if (labours.length === 0) list.textContent = 'None in this campaign.';
  } catch (error) {
    if (current === id) list.textContent = `Cannot list the labours: ${describe(error)}.`;
  }
}

void loadFields();
