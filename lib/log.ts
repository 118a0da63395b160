// Structured JSON logs, one line per entry, carrying the request id when there is one. An error's
// stack is logged in the source's files and lines (lib/util/stack.ts).
import { originalStack } from './util/stack';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

function threshold(): number {
  const wanted = (process.env.SURCO_LOG_LEVEL ?? 'info') as Level | 'silent';
  return ORDER[wanted] ?? ORDER.info;
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const write = (level: Level, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < threshold()) return;
    const entry = { level, time: new Date().toISOString(), message, ...base, ...fields };
    process.stdout.write(`${JSON.stringify(entry, errorReplacer)}\n`);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack && originalStack(value.stack) };
  }
  return value;
}

export const log = createLogger();
