// The packaging the infrastructure test checks (tests/infrastructure.test.ts), started by the stack
// setup at the beginning of the run when SURCO_PREPACKAGE=1 (an opt-in: `SURCO_PREPACKAGE=1 npm
// test`), so that its minute or more of CPU overlaps the unit tests and the stack's start instead
// of following them. Writes `<dir>/result.json` (the packaged services) or `<dir>/error.txt`.
//   node --import tsx tests/setup/prepackage.ts <dir>
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageServices } from '../../scripts/package';

const dir = process.argv[2]!;
try {
  const packaged = await packageServices(join(dir, 'default'), { env: process.env });
  writeFileSync(join(dir, 'result.json.tmp'), JSON.stringify(packaged));
  // renamed whole, so that a reader never sees half of it
  renameSync(join(dir, 'result.json.tmp'), join(dir, 'result.json'));
} catch (error) {
  writeFileSync(join(dir, 'error.txt'), (error as Error).stack ?? String(error));
}
process.exit(0);
