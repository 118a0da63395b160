// The one place the platform makes and reads uuids. Records take v4 (crypto.randomUUID); the spec
// asks for v1 where clients send v1 (spots, their texts and tags) and the inbox orders by v7 (its
// ids sort by time); the uuid package reads a uuid's version.
import { randomUUID } from 'node:crypto';
import { v1, v7, validate, version } from 'uuid';

/** A new random uuid (v4), for every record whose uuid the spec does not fix otherwise. */
export const newUuid = (): string => randomUUID();

/** A time-based uuid (v1): spots, spot texts and tags, whose uuids the spec makes v1. */
export const newUuidV1 = (): string => v1();

/** A time-ordered uuid (v7): ids that sort by creation (the inbox). */
export const newUuidV7 = (): string => v7();

export const isUuid = (value: string): boolean => validate(value);

/** The version of a valid uuid (1, 4, 7...). */
export const uuidVersion = (value: string): number => version(value);
