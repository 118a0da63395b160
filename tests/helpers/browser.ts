// A real headless Chromium for the browser tests, driven by Playwright (playwright-core): the
// Chromium that npm install brings inside @sparticuz/chromium, a headless shell that needs only the
// C library, NSS and expat of the system (Playwright's own browser download cannot reach its
// servers here). Its brotli-packed binary, fonts and SwiftShader (WebGL without a GPU, for
// MapLibre) are unpacked once into .surco/chromium/<version>/. Playwright starts every browser with a fresh profile directory of its
// own (a new --user-data-dir), removed when it closes.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';

const root = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

/** Flags of a headless Chromium on a machine without a GPU and without the Internet. */
const FLAGS = [
  '--no-sandbox',
  '--no-zygote',
  '--no-first-run',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-domain-reliability',
  '--no-pings',
  // WebGL through SwiftShader (CPU): MapLibre draws with WebGL
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--lang=en-US',
];

const INSTALL = 'run npm install (it brings playwright-core and @sparticuz/chromium, devDependencies)';

/** A package (or with `resolveOnly`, where it is), or an error that says how to install it. */
function load<T>(name: string, resolveOnly = false): T {
  try {
    return (resolveOnly ? require.resolve(name) : require(name)) as T;
  } catch (error) {
    throw new Error(`${name} cannot be loaded: ${INSTALL} (${(error as Error).message})`);
  }
}

/** The installed version of a package whose exports do not offer its package.json: found above its main module. */
function packageVersion(name: string): string {
  for (let dir = dirname(load<string>(name, true)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version: string };
      if (json.name === name) return json.version;
    } catch {
      // not the package's directory yet
    }
  }
  throw new Error(`${name}: no package.json found: ${INSTALL}`);
}

/** The unpacked Chromium: its binary and the fontconfig file that names its fonts. */
async function unpacked(): Promise<{ executable: string; fontconfig: string }> {
  const version = packageVersion('@sparticuz/chromium');
  const dir = join(root, '.surco', 'chromium', version);
  const executable = join(dir, 'chromium');
  const fontconfig = join(dir, 'fonts.conf');
  try {
    readFileSync(fontconfig);
    return { executable, fontconfig };
  } catch {
    // not unpacked yet
  }
  const { default: Chromium } = (await import('@sparticuz/chromium')) as unknown as {
    default: { executablePath(): Promise<string> };
  };
  // the package unpacks into os.tmpdir(): a directory of this process's own, moved into place whole,
  // so that two test processes never write the same files
  mkdirSync(join(root, '.surco', 'chromium'), { recursive: true });
  const staging = mkdtempSync(join(root, '.surco', 'chromium', `.unpacking-${process.pid}-`));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await Chromium.executablePath();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  writeFileSync(
    join(staging, 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, 'fonts')}</dir>\n  <dir>/usr/share/fonts</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  try {
    renameSync(staging, dir);
  } catch {
    // another process unpacked it first
    rmSync(staging, { recursive: true, force: true });
  }
  return { executable, fontconfig };
}

/** A headless Chromium with a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
  const { chromium } = load<typeof import('playwright-core')>('playwright-core');
  const { executable, fontconfig } = await unpacked();
  try {
    return await chromium.launch({
      executablePath: executable,
      headless: true,
      args: FLAGS,
      // a locale of its own: the browser takes its language from LANG, which may be none a page's Intl
      // accepts (POSIX machines: `en-US@posix`)
      env: { ...process.env, LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8', FONTCONFIG_FILE: fontconfig } as Record<
        string,
        string
      >,
      timeout: 60_000,
    });
  } catch (error) {
    // the shell needs the C library, NSS and expat of the system (Debian and Ubuntu have them)
    throw new Error(
      `headless Chromium (${executable}) did not start: ${(error as Error).message}. It needs the system's NSS and expat libraries: on Debian/Ubuntu, sudo apt-get install libnss3 libexpat1`,
    );
  }
}

/** What a page says in the browser's console at the error level, and the errors it throws. */
export function browserErrors(target: Page | BrowserContext): string[] {
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  };
  if ('goto' in target) watch(target);
  else target.on('page', watch);
  return errors;
}
