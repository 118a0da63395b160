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
  layers: () => import('./layers'),
  sheets: () => import('./sheets'),
  authorizer: () => import('./authorizer'),
};

// cold-start and cold-call package and spawn hundreds of processes, load runs a minute of traffic, faults pauses DynamoDB: run them by name
const wanted = process.argv.slice(2).length
  ? process.argv.slice(2)
  : Object.keys(suites).filter((name) => !['cold-start', 'cold-call', 'load', 'faults', 'authorizer'].includes(name));
for (const name of wanted) {
  const load = suites[name];
  if (!load) {
    console.error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`);
    process.exit(2);
  }
  await (await load()).run();
}
process.exit(0);
