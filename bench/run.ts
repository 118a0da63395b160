// npm run bench [-- suite...]: runs the named benchmark suites (all by default) and prints JSON.
export {};

const suites: Record<string, () => Promise<{ run(): Promise<void> }>> = {
  foundation: () => import('./foundation'),
  sensors: () => import('./sensors'),
  notifications: () => import('./notifications'),
  'cold-start': () => import('./cold-start'),
  'cold-call': () => import('./cold-call'),
  load: () => import('./load'),
  faults: () => import('./faults'),
  imagery: () => import('./imagery'),
  'imagery-scale': () => import('./imagery-scale'),
  layers: () => import('./layers'),
  sheets: () => import('./sheets'),
  'work-orders': () => import('./work-orders'),
  reads: () => import('./reads'),
  'hot-items': () => import('./hot-items'),
  authorizer: () => import('./authorizer'),
  'big-account': () => import('./big-account'),
};

// cold-start and cold-call package and spawn hundreds of processes, load runs a minute of traffic, faults pauses DynamoDB,
// imagery-scale places 100,000 fields and reads thousands of scenes, big-account makes 2,000 fields of
// 1,000 vertices: run them by name
// suite names come first; what follows the first option (`--sizes 10,100`) is the suites' own. A
// bare `--` (`npm run bench -- reads -- --sizes 10`) is dropped: the suites' parseArgs would take
// every option after it for a positional and run with their defaults.
process.argv = process.argv.filter((arg, i) => i < 2 || arg !== '--');
const firstOption = process.argv.slice(2).findIndex((arg) => arg.startsWith('--'));
const names = firstOption < 0 ? process.argv.slice(2) : process.argv.slice(2, 2 + firstOption);
const wanted = names.length
  ? names
  : Object.keys(suites).filter(
      (name) =>
        !['cold-start', 'cold-call', 'load', 'faults', 'authorizer', 'imagery-scale', 'big-account'].includes(name),
    );
for (const name of wanted) {
  const load = suites[name];
  if (!load) {
    console.error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`);
    process.exit(2);
  }
  await (await load()).run();
}
process.exit(0);
