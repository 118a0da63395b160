// The packaging the infrastructure test checks (tests/infrastructure.test.ts), started by the stack
// setup at the beginning of a run that may hold that test (SURCO_PREPACKAGE=0 turns it off), at
// the lowest CPU priority: its two minutes of CPU fill the cores the unit tests and the stack's
// start leave idle instead of following them, and yield to the tests where cores are short.
// Writes `<dir>/result.json` (the packaged services) or `<dir>/error.txt`.
//   node --import tsx tests/setup/prepackage.ts <dir>
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageServices } from '../../scripts/package';

const dir = process.argv[2]!;
try {
  // one lane: the same zips with less CPU than two (each lane parses every module once), and the
  // tests beside it take the cores anyway (deploy/esbuild.yml)
  const packaged = await packageServices(join(dir, 'default'), { env: { ...process.env, SURCO_PACKAGE_LANES: '1' } });
  writeFileSync(join(dir, 'result.json.tmp'), JSON.stringify(packaged));
  // renamed whole, so that a reader never sees half of it
  renameSync(join(dir, 'result.json.tmp'), join(dir, 'result.json'));
} catch (error) {
  writeFileSync(join(dir, 'error.txt'), (error as Error).stack ?? String(error));
}
process.exit(0);
