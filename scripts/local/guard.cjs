'use strict';
// Runs one command and ends it when the process that started this one is gone, however that ended
// (Ctrl-C, SIGTERM, SIGHUP, or killed outright with SIGKILL, which no handler sees): the local
// stack starts DynamoDB Local's JVM through it (scripts/local/stack.ts), so that a stack whose
// process died leaves no JVM holding its port. The IPC channel to the parent closes when the parent
// ends ('disconnect'); a signal to this process is passed on.
//   node scripts/local/guard.cjs <command> [args...]   (spawned with an IPC channel)
const { spawn } = require('node:child_process');

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const running = () => child.exitCode === null && child.signalCode === null;
const stop = () => {
  if (!running()) return;
  child.kill('SIGTERM');
  setTimeout(() => running() && child.kill('SIGKILL'), 5000).unref();
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
process.on('disconnect', stop);
child.on('error', (error) => {
  console.error(`guard: ${command}: ${error.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 0)));
