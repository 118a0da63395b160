// GET /docs in a real headless Chromium (tests/helpers/browser.ts; docs/console.md): the API
// reference loads this deployment's OpenAPI document, and its "try it" of getfields, with the token
// given in its bar, is answered 200 with the caller's fields; the page logs no error.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createField, newUser, stack, unique } from '../helpers/api';
import { browserErrors, launchBrowser } from '../helpers/browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('GET /docs: the API reference', () => {
  it('loads the document and answers a "try it" of getfields with 200, sending the token given in the page', async () => {
    const user = await newUser();
    const name = unique('Lote referencia');
    await createField(user, { name });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = browserErrors(page);
    await page.goto(`${stack().baseUrl}/docs`);
    // the document's operations, grouped by tag
    await page.locator('.opblock-tag').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('.opblock-tag').count()).toBeGreaterThan(10);
    await page.fill('#token', user.token);
    await page.click('#token-form button[type="submit"]');
    await expect.poll(() => page.textContent('#token-state')).toContain('token set');

    await page.click('#operations-tag-fields');
    const operation = page.locator('#operations-fields-getFields');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    const sent = page.waitForRequest((request) => request.url().endsWith('/api/getfields'));
    await operation.locator('button.execute').click();
    const request = await sent;
    // "try it" calls the API that serves the page, with the token given in the bar
    expect(request.url()).toBe(`${stack().baseUrl}/api/getfields`);
    expect(request.headers().authorization).toBe(`Bearer ${user.token}`);
    const status = operation.locator('.live-responses-table tr.response .response-col_status');
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toBe('200');
    expect(
      await operation.locator('.live-responses-table tr.response .response-col_description').textContent(),
    ).toContain(name);
    // Swagger UI's licence and notice, served beside it
    const licences = await page
      .locator('#licences a')
      .evaluateAll((links) => links.map((a) => (a as { href: string }).href));
    expect(licences).toHaveLength(3);
    for (const href of licences) {
      const answer = await page.request.get(href);
      expect([answer.status(), answer.headers()['content-type']], href).toEqual([200, 'text/plain; charset=utf-8']);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
