// GET /console in a real headless Chromium (tests/helpers/browser.ts; docs/console.md), given a
// token in its URL's fragment: the user's field outline on the map, selected by a click on it; its
// newest clear NDVI image drawn as map tiles of GET /api/geoserver/v2 (EPSG 3857, a bbox per tile),
// coloured inside the field and transparent outside it (read from a screenshot: the field is a
// triangle, so half of its bounding box, where tiles are drawn, is outside it); the legend, the NDVI
// chart, the spot and sampling point with their names and the labour of the current campaign; no
// error in the browser's console.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colourIn } from '../../lib/imagery/colours';
import { call, createField, eventually, IMAGERY_AREA, internal, newUser, stack, unique } from '../helpers/api';
import { browserErrors, launchBrowser } from '../helpers/browser';

type Rgb = [number, number, number];

// the map's colours (console/map.ts MAP_COLOURS) and the chart's line (console/chart.ts)
const BACKGROUND: Rgb = [0xec, 0xee, 0xe8];
const OUTLINE: Rgb = [0x5a, 0x6b, 0x7b];
const SELECTED: Rgb = [0x14, 0x46, 0xff];
const CHART_LINE: Rgb = [0x2e, 0x7d, 0x32];

/** A right triangle in the imagery area: its right angle south-west, its hypotenuse from south-east to north-west. */
const [WEST, SOUTH] = [IMAGERY_AREA[0] + 0.3, IMAGERY_AREA[1] + 0.85];
const SIDE = 0.012;
const TRIANGLE = `POLYGON((${WEST} ${SOUTH},${WEST + SIDE} ${SOUTH},${WEST} ${SOUTH + SIDE},${WEST} ${SOUTH}))`;
/** A place of the field, as fractions of its side east and north of the right angle. */
const at = (east: number, north: number) => `POINT(${WEST + east * SIDE} ${SOUTH + north * SIDE})`;

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const distance = (a: Rgb, b: Rgb) => Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));

/** The map's pixels, from a screenshot of it. */
async function mapPixels(page: Page) {
  const png = PNG.sync.read(await page.locator('#map').screenshot());
  return {
    png,
    at: (x: number, y: number): Rgb => {
      const i = (Math.round(y) * png.width + Math.round(x)) * 4;
      return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    },
  };
}

/** The box of the pixels of one colour in an image (an outline drawn on the map), or undefined. */
function boxOf(png: PNG, colour: Rgb, tolerance: number) {
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  let count = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      if (distance([png.data[i]!, png.data[i + 1]!, png.data[i + 2]!], colour) > tolerance) continue;
      count++;
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    }
  }
  if (count < 20) return undefined;
  const box = { left, top, right, bottom, width: right - left, height: bottom - top };
  /** A place of the box, as fractions of it east and north of its south-west corner (the field's right angle). */
  return {
    ...box,
    point: (east: number, north: number) => [left + east * box.width, bottom - north * box.height] as const,
  };
}

/** The NDVI scale of the renderer, every 0.005 (lib/imagery/colours.ts). */
const NDVI_RAMP: Rgb[] = Array.from({ length: 201 }, (_, i) => colourIn({ min: 0, max: 1 }, i / 200));
const onRamp = (pixel: Rgb) => Math.min(...NDVI_RAMP.map((c) => distance(c, pixel)));

describe('GET /console: the web console', () => {
  it("shows the user's field, draws its NDVI as tiles coloured inside and transparent outside it, its chart, points and labours", async () => {
    const user = await newUser();
    const name = unique('Lote triángulo');
    const { fieldId } = await createField(user, { name, shape: TRIANGLE });
    const spotName = 'Mancha de malezas';
    const spot = await call('POST', '/spots/spot', {
      token: user.token,
      json: { field_id: fieldId, shape: at(0.25, 0.55), name: spotName },
    });
    expect(spot.status, spot.text).toBe(200);
    const group = randomUUID();
    const sampling = await internal('/internal/samplings', {
      sampling_name: 'Muestreo de suelo',
      field_id: fieldId,
      yeargroup: new Date().getUTCFullYear(),
      zoning: { info: { map_id: '1' }, type: 'map' },
      analysis: { 'Suelo 0-20': [{ name: 'P', unit_id: 7 }] },
      groups: [{ group_uuid: group, color: '#D7191C', name: 'Ambiente bajo' }],
      points: [{ geometry: at(0.55, 0.25), group_uuid: group }],
    });
    expect(sampling.status, sampling.text).toBe(200);
    const campaign = new Date().getUTCFullYear();
    const labour = await call('POST', '/activities/labour', {
      token: user.token,
      json: {
        labour_type_id: 1,
        yeargroup: campaign,
        date: `${campaign}-06-15`,
        field_id: fieldId,
        surface: 40,
        application_type_id: 1,
        end_cycle: false,
      },
    });
    expect(labour.status, labour.text).toBe(200);
    // the field's scenes (the test stack's catalogue: a clear date among three) and its NDVI series
    await eventually(
      async () => {
        const dates = await call('GET', '/api/layers/dates/v3', { token: user.token, query: { field_id: fieldId } });
        return dates.body?.layers?.sentinel2?.dates?.some((d: { cloudy: boolean }) => !d.cloudy) ? true : undefined;
      },
      120_000,
      500,
    );
    const series = await call('GET', '/api/fields/ndvi', { token: user.token, query: { field_id: fieldId } });
    expect(series.body.ndvi.length).toBeGreaterThan(0);

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    const errors = browserErrors(page);
    const tiles: Array<{ url: string; status: number; type: string | null; authorization?: string }> = [];
    page.on('response', async (response) => {
      if (!response.url().includes('/api/geoserver/v2')) return;
      tiles.push({
        url: response.url(),
        status: response.status(),
        type: await response.headerValue('content-type'),
        authorization: response.request().headers().authorization,
      });
    });
    await page.goto(`${stack().baseUrl}/console#token=${user.token}`);
    // the token leaves the address bar (kept for the tab), and never went in a query string
    await expect.poll(() => page.url()).toBe(`${stack().baseUrl}/console`);
    expect(await page.evaluate("sessionStorage.getItem('surco.token')")).toBe(user.token);
    await page.locator('#farms button', { hasText: name }).waitFor();
    await expect.poll(() => page.textContent('#status')).toContain('1 field(s)');

    // the field's outline on the map; a click inside it selects it
    await page.locator('.field-label', { hasText: name }).waitFor();
    await page.waitForTimeout(500);
    const before = await mapPixels(page);
    const outline = boxOf(before.png, OUTLINE, 12);
    expect(outline, 'the outline of the field').toBeDefined();
    expect(outline!.width).toBeGreaterThan(200);
    expect(outline!.height).toBeGreaterThan(200);
    const mapBox = (await page.locator('#map').boundingBox())!;
    const [clickX, clickY] = outline!.point(0.12, 0.12);
    await page.mouse.click(mapBox.x + clickX, mapBox.y + clickY);
    await expect.poll(() => page.textContent('#field-name')).toBe(name);
    expect(await page.getAttribute(`#farms button[data-field-id="${fieldId}"]`, 'aria-current')).toBe('true');

    // its newest clear image, drawn as tiles, with the legend of the NDVI scale
    await expect.poll(() => page.textContent('#imagery-status'), { timeout: 60_000 }).toMatch(/^Image of .* drawn\.$/);
    expect(await page.inputValue('#layer')).toBe('sentinel2');
    expect(await page.inputValue('#operation')).toBe('ndvi1');
    expect(await page.locator('#legend .legend-ramp').count()).toBe(1);
    expect(await page.locator('#legend .legend-labels span').allTextContents()).toEqual(['0', '0.5', '1']);
    expect(tiles.length).toBeGreaterThan(0);
    for (const tile of tiles) {
      const query = new URL(tile.url).searchParams;
      expect(tile).toMatchObject({ status: 200, type: 'image/png', authorization: `Bearer ${user.token}` });
      expect([query.get('field_id'), query.get('operation'), query.get('epsg'), query.get('transparent')]).toEqual([
        String(fieldId),
        'ndvi1',
        '3857',
        'true',
      ]);
      expect(query.get('bbox')).toMatch(/^-?[\d.]+,-?[\d.]+,-?[\d.]+,-?[\d.]+$/);
    }
    const after = await mapPixels(page);
    if (process.env.SURCO_CONSOLE_SCREENSHOT) await page.screenshot({ path: process.env.SURCO_CONSOLE_SCREENSHOT });
    const selected = boxOf(after.png, SELECTED, 12);
    expect(selected, 'the outline of the selected field').toBeDefined();
    // inside the field (away from its name and points): NDVI colours; outside it, within its
    // bounding box, where the tiles lie too: the map's background through the image's transparency
    for (const [east, north] of [
      [0.1, 0.1],
      [0.45, 0.08],
      [0.08, 0.45],
      [0.2, 0.3],
    ] as const) {
      const [x, y] = selected!.point(east, north);
      const pixel = after.at(x, y);
      expect(distance(pixel, BACKGROUND), `inside at ${east}, ${north}: ${pixel}`).toBeGreaterThan(20);
      expect(onRamp(pixel), `inside at ${east}, ${north}: ${pixel}`).toBeLessThanOrEqual(6);
    }
    for (const [east, north] of [
      [0.8, 0.8],
      [0.92, 0.5],
      [0.5, 0.92],
      [0.65, 0.65],
    ] as const) {
      const [x, y] = selected!.point(east, north);
      const pixel = after.at(x, y);
      expect(distance(pixel, BACKGROUND), `outside at ${east}, ${north}: ${pixel}`).toBeLessThanOrEqual(2);
    }

    // the NDVI chart, drawn on its canvas
    const chart = PNG.sync.read(await page.locator('#ndvi-chart canvas').first().screenshot());
    let line = 0;
    for (let i = 0; i < chart.data.length; i += 4) {
      if (distance([chart.data[i]!, chart.data[i + 1]!, chart.data[i + 2]!], CHART_LINE) <= 10) line++;
    }
    expect(line).toBeGreaterThan(10);

    // the spot and the sampling's point with their names, the labour of the current campaign
    await expect
      .poll(() => page.locator('.point-label').allTextContents())
      .toEqual(expect.arrayContaining([spotName, 'Ambiente bajo']));
    expect(await page.textContent('#points')).toContain('Sampling Muestreo de suelo: 1 point(s)');
    expect(await page.textContent('#labours-title')).toBe(`Labours of campaign ${campaign}`);
    expect(await page.textContent('#labours')).toContain(`${campaign}-06-15 · Application (planned)`);

    expect(errors).toEqual([]);
    await page.close();
  });
});
