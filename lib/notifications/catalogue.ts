// The events the notifications know (spec 3, "Events"): versioned names (`NAME.V<n>`), the
// payload each carries, whether it stacks, and its message in every locale (es, en, pt). An event
// is resolved by name and version; an unknown name or version is refused where it is posted.
import * as z from 'zod/mini';
import type { Locale } from '../platform/model';

export interface EventDefinition {
  /** Full name, e.g. FIELD_SHARE.V1. */
  name: string;
  payload: z.ZodMiniType<Record<string, unknown>>;
  /** Undismissed items of a stackable event merge into one (docs/decisions.md, Notifications). */
  stackable: boolean;
  /** Whether it reaches the inbox; PING.V1 lives on the stream only. */
  inbox: boolean;
  /** The message in a locale; `count` is the number of events a stacked item holds. */
  message(locale: Locale, payload: Record<string, unknown>, count: number): string;
}

type Texts = Record<Locale, (payload: Record<string, unknown>, count: number) => string>;

const empty = z.looseObject({});

const SharedField = z.object({
  field_name: z.string(),
  field_id: z.number().check(z.int()),
  field_uuid: z.string(),
  farm_id: z.number().check(z.int()),
  farm_uuid: z.string(),
  source_user_name: z.string(),
});
const FieldSharePayload = z.looseObject({ fields: z.array(SharedField).check(z.minLength(1)) });

const fieldsOf = (payload: Record<string, unknown>) => (payload.fields as Array<z.infer<typeof SharedField>>) ?? [];
const names = (payload: Record<string, unknown>) =>
  fieldsOf(payload)
    .map((f) => f.field_name)
    .join(', ');
const source = (payload: Record<string, unknown>) => fieldsOf(payload)[0]?.source_user_name ?? '';

const FIELD_SHARE_TEXTS: Texts = {
  es: (p) =>
    fieldsOf(p).length === 1
      ? `${source(p)} compartió contigo el lote ${names(p)}`
      : `${source(p)} compartió contigo ${fieldsOf(p).length} lotes: ${names(p)}`,
  en: (p) =>
    fieldsOf(p).length === 1
      ? `${source(p)} shared the field ${names(p)} with you`
      : `${source(p)} shared ${fieldsOf(p).length} fields with you: ${names(p)}`,
  pt: (p) =>
    fieldsOf(p).length === 1
      ? `${source(p)} compartilhou com você o talhão ${names(p)}`
      : `${source(p)} compartilhou com você ${fieldsOf(p).length} talhões: ${names(p)}`,
};

const TEST_TEXTS: Texts = {
  es: () => 'Esta es una notificación de prueba',
  en: () => 'This is a test notification',
  pt: () => 'Esta é uma notificação de teste',
};

const STACKABLE_TEST_TEXTS: Texts = {
  es: (_p, n) => (n === 1 ? 'Tienes 1 notificación de prueba' : `Tienes ${n} notificaciones de prueba`),
  en: (_p, n) => (n === 1 ? 'You have 1 test notification' : `You have ${n} test notifications`),
  pt: (_p, n) => (n === 1 ? 'Você tem 1 notificação de teste' : `Você tem ${n} notificações de teste`),
};

const PING_TEXTS: Texts = { es: () => 'ping', en: () => 'ping', pt: () => 'ping' };

const define = (
  name: string,
  payload: z.ZodMiniType<Record<string, unknown>>,
  texts: Texts,
  options: { stackable?: boolean; inbox?: boolean } = {},
): EventDefinition => ({
  name,
  payload,
  stackable: options.stackable ?? false,
  inbox: options.inbox ?? true,
  message: (locale, p, count) => (texts[locale] ?? texts.en)(p, count),
});

export const TEST_EVENT = 'TEST.V1';
export const STACKABLE_TEST_EVENT = 'STACKABLE_TEST.V1';
export const PING_EVENT = 'PING.V1';
export const FIELD_SHARE_EVENT = 'FIELD_SHARE.V1';

const CATALOGUE: Record<string, EventDefinition> = Object.fromEntries(
  [
    define(TEST_EVENT, empty, TEST_TEXTS),
    define(STACKABLE_TEST_EVENT, empty, STACKABLE_TEST_TEXTS, { stackable: true }),
    define(PING_EVENT, empty, PING_TEXTS, { inbox: false }),
    define(FIELD_SHARE_EVENT, FieldSharePayload, FIELD_SHARE_TEXTS),
  ].map((d) => [d.name, d]),
);

export const EVENT_NAME = /^([A-Z][A-Z0-9_]*)\.V([1-9]\d*)$/;

export type Resolution = { ok: true; definition: EventDefinition } | { ok: false; reason: string };

/** The definition of `NAME.V<n>`: by name, then by version. */
export function resolveEvent(eventName: string): Resolution {
  const match = EVENT_NAME.exec(eventName);
  if (!match) return { ok: false, reason: `event_name must look like NAME.V1, not ${JSON.stringify(eventName)}` };
  const definition = CATALOGUE[eventName];
  if (definition) return { ok: true, definition };
  const versions = Object.keys(CATALOGUE).filter((name) => name.startsWith(`${match[1]}.V`));
  return {
    ok: false,
    reason: versions.length
      ? `unknown version V${match[2]} of ${match[1]} (known: ${versions.join(', ')})`
      : `unknown event ${match[1]}`,
  };
}

/** The events that reach inboxes (what /nc-internal/events may send). */
export const INBOX_EVENTS = Object.values(CATALOGUE)
  .filter((d) => d.inbox)
  .map((d) => d.name);
