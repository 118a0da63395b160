// Spots (spec 1): management zones with texts, images, tags and variables, as one service built
// from its repository, field gate, image files and event publisher (services take them as
// parameters): the rules in locate.ts, spots.ts, messages.ts, images.ts, tags.ts and list.ts run against
// DynamoDB, S3 and SQS in the functions (lib/spots/repository.ts) and against memory in
// tests/unit/spots.test.ts.
import type { FieldGate } from '../authz/gate';
import type { DomainError } from '../errors';
import type { DeclaredImage } from './images';
import { imageRules } from './images';
import { listRules } from './list';
import { locateRules } from './locate';
import { messageRules } from './messages';
import type { ImageDeclaration, Spot, SpotMessage, TagRef } from './model';
import { spotRules, variableRules } from './spots';
import type { SpotTag } from './tags';
import { tagRules } from './tags';

/** A user tag to create (counting the spot written with it). */
export interface NewTag {
  uuid: string;
  tag: string;
  ownerId: number;
  /** Spots carrying it when created: 1 when a spot write creates it, 0 from the tags endpoint. */
  spotCount: number;
}

/** A text of a spot to store: new (its uuid must be free in the spot), or replacing the stored one. */
export interface TextWrite {
  message: SpotMessage;
  isNew: boolean;
  /** The stored text's time stamp when it changed (the text moves in the spot's newest-first order). */
  movedFrom?: string;
}

/**
 * Everything one spot request writes, all at once (a DynamoDB transaction holds at most 100 items:
 * more is refused with `tooLarge` before anything is written). Conflicts with concurrent writes
 * are LostRace (the service retries from its reads).
 */
export interface SpotWrite {
  /** A new spot: its uuid in the field, its code and its id must be free; its field must exist. */
  created?: Spot;
  /** A spot's next state over the one read (moved to another field when its field changed). */
  replaced?: { next: Spot; previous: Spot };
  /** Counts of a spot's texts and images moved by these deltas, over the version read. */
  counters?: { spot: Spot; messages: number; images: number };
  /** A spot deleted: over the version read, or (`anyVersion`, a deleted field's cleanup) whatever it is. */
  deleted?: { spot: Spot; anyVersion?: boolean };
  tagsCreated?: NewTag[];
  tagCounts?: Array<{ tag: TagRef & { ownerId: number }; delta: number }>;
  texts?: TextWrite[];
  textsRemoved?: SpotMessage[];
  imagesDeclared?: Array<{ spotId: number; image: ImageDeclaration }>;
  imagesRemoved?: Array<{ spotId: number; uuid: string }>;
}

export interface SpotWriteRefusals {
  tooLarge: () => DomainError;
  fieldNotFound: (fieldId: number) => DomainError;
  /** A moved spot's uuid is taken in the target field. */
  uuidTaken: (fieldId: number) => DomainError;
  /** The spot to delete (anyVersion) is already gone. */
  gone: () => DomainError;
}

/** Where spots, their texts, images, tags and sample sets are kept. */
export interface SpotRepository {
  nextId(sequence: 'spot' | 'sample_set' | 'sample_set_type'): Promise<number>;
  /** The fields holding a spot of this uuid (a uuid names a spot within its field). */
  spotFields(uuid: string): Promise<number[]>;
  spot(fieldId: number, uuid: string): Promise<Spot | undefined>;
  spotById(spotId: number): Promise<Spot | undefined>;
  /** The spots of these uuids in these fields. */
  spotsNamed(uuids: string[], fieldIds: Set<number>): Promise<Spot[]>;
  /** A field's spots created between two instants (both included, YYYY-MM-DDTHH:MM:SS.mmmZ#uuid), newest first. */
  fieldSpots(fieldId: number, from: string, to: string, pageSize?: number): AsyncIterable<Spot>;
  /** A farm's spots created between two instants (as fieldSpots), newest first; those of a deleted field not yet cleaned up among them. */
  farmSpots(farmId: number, from: string, to: string, pageSize?: number): AsyncIterable<Spot>;
  /** Whether every spot is in its farm's index (its backfill is done). */
  byFarm(): Promise<boolean>;
  /** The spots of a group, in any field. */
  groupMembers(groupUuid: string): Promise<Spot[]>;
  /** A spot's texts, newest first (by the user's time stamp); at most `limit` when given. */
  messages(spotId: number, limit?: number): Promise<SpotMessage[]>;
  /** The spots holding a text of this uuid. */
  messageSpots(uuid: string): Promise<number[]>;
  message(spotId: number, uuid: string): Promise<SpotMessage | undefined>;
  /** Every image declared with this uuid (one per spot). */
  images(uuid: string): Promise<DeclaredImage[]>;
  markUploaded(image: DeclaredImage, contentType: string, size: number): Promise<void>;
  sampleSetType(type: string): Promise<number | undefined>;
  /** Registers a type's id (a LostRace when registered meanwhile). */
  registerSampleSetType(type: string, id: number): Promise<void>;
  sampleSet(ownerId: number, uuid: string): Promise<{ id: number; type: string } | undefined>;
  registerSampleSet(ownerId: number, uuid: string, set: { id: number; type: string }): Promise<void>;
  /** Stored user tags, by tagRefKey (deleted ones included). */
  tags(refs: Array<TagRef & { ownerId: number }>): Promise<Map<string, SpotTag>>;
  /** A user's tags that are not deleted. */
  tagsOfUser(userId: number): Promise<SpotTag[]>;
  /** Creates a tag; false when the owner already has its uuid (maybe deleted). */
  createTag(tag: NewTag): Promise<boolean>;
  /** Renames a tag that is not deleted (`notFound` otherwise). */
  renameTag(ownerId: number, uuid: string, name: string, notFound: () => DomainError): Promise<void>;
  /** Deletes a tag no spot carries (`inUse` otherwise); its uuid stays taken (a tombstone). */
  deleteTag(ownerId: number, uuid: string, inUse: () => DomainError): Promise<void>;
  write(change: SpotWrite, refuse: SpotWriteRefusals): Promise<void>;
}

/** Where the files of spot images are kept. */
export interface ImageStore {
  put(spotId: number, uuid: string, content: Buffer, contentType: string): Promise<void>;
  /** A form a client posts the file with, straight to storage (the size and type are enforced there). */
  presign(
    spotId: number,
    uuid: string,
    contentType: string,
    maxBytes: number,
    seconds: number,
  ): Promise<{ url: string; fields: Record<string, string> }>;
  head(spotId: number, uuid: string): Promise<{ size: number; contentType: string } | undefined>;
  get(spotId: number, uuid: string): Promise<{ content: Buffer; contentType?: string } | undefined>;
  /** A short-lived URL to download the file from storage. */
  signedUrl(spotId: number, uuid: string, seconds: number): Promise<string>;
  /** Deletes files (after the records that declared them are gone). */
  remove(spotId: number, uuids: string[]): Promise<void>;
}

export interface SpotDeps {
  repository: SpotRepository;
  fields: FieldGate;
  /** Where image files are kept (S3: lib/spots/files.ts). */
  images: ImageStore;
  /** Hands a job to the worker (SPOT_DELETED.V1 removes a deleted spot's texts and images). */
  publish: (name: string, data: Record<string, unknown>) => Promise<unknown>;
  now?: () => Date;
}

/** The whole service (spots with their texts, images, tags and lists). */
export function spotsService(deps: SpotDeps) {
  const locate = locateRules(deps);
  const tags = tagRules(deps);
  const messages = messageRules(deps, locate);
  return {
    ...locate,
    ...tags,
    ...messages,
    ...imageRules(deps),
    ...spotRules(deps, locate, tags, messages),
    ...variableRules(deps, locate),
    ...listRules(deps, tags),
  };
}

// Parts of the service for functions that need only them (each function bundles what it calls).

/** Texts: adding, listing and deleting, on the spots the caller reaches. */
export function spotMessagesService(deps: Pick<SpotDeps, 'repository' | 'fields' | 'images' | 'now'>) {
  const locate = locateRules(deps);
  return { ...locate, ...messageRules(deps, locate) };
}

/** Image uploads and downloads, on the spots the caller reaches. */
export function spotImagesService(deps: Pick<SpotDeps, 'repository' | 'fields' | 'images'>) {
  return { ...locateRules(deps), ...imageRules(deps) };
}

/** Listings, with their tags and texts. */
export function spotListsService(deps: Pick<SpotDeps, 'repository' | 'fields'>) {
  return listRules(deps, tagRules(deps));
}

/** Variables of spots: replaced or merged by name. */
export function spotVariablesService(deps: Pick<SpotDeps, 'repository' | 'fields'>) {
  const locate = locateRules(deps);
  return { ...locate, ...variableRules(deps, locate) };
}

/** The sheets that export spots' variables and import them back. */
export function spotSheetsService(deps: Pick<SpotDeps, 'repository' | 'fields'>) {
  return { ...spotVariablesService(deps), ...listRules(deps, tagRules(deps)) };
}
