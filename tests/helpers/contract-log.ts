// What the response check of tests/helpers/contract.ts found over a run: each test process notes
// the operations and statuses it checked in .surco/test-logs/contract-<pid>.log; the stack's setup
// clears them and its last teardown sums them up (tests/setup/stack.ts) into contract.json.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '..', '..', '.surco', 'test-logs');
const parts = () => readdirSync(dir).filter((file) => /^contract-\d+\.log$/.test(file));

export const contractChecks = {
  reset(): void {
    mkdirSync(dir, { recursive: true });
    for (const file of parts()) rmSync(join(dir, file), { force: true });
  },
  /** One line: how many operations and (operation, status) pairs were checked; written to contract.json. */
  summary(): string | undefined {
    const checked = new Set<string>();
    for (const file of parts()) {
      for (const entry of readFileSync(join(dir, file), 'utf8').split('\n')) if (entry) checked.add(entry);
      rmSync(join(dir, file), { force: true });
    }
    if (!checked.size) return undefined;
    const sorted = [...checked].sort();
    const operations = new Set(sorted.map((entry) => entry.split(' ')[0]));
    writeFileSync(
      join(dir, 'contract.json'),
      JSON.stringify({ operations: operations.size, checked: sorted }, null, 2),
    );
    return `Response check (docs/openapi.json): ${operations.size} operations, ${sorted.length} (operation, status) pairs answered as documented; .surco/test-logs/contract.json`;
  },
};
