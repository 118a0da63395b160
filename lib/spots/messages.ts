// Spot messages (spec 1): texts with images declared by uuid, kept under their spot, newest first
// by the user's own time stamp. A text's uuid names it within its spot. Everything a request does
// to texts is validated first and written in the same transaction as the rest of the request.

import type { Principal } from '../auth/principal';
import { NotFound } from '../errors';
import { GeometryError, type GeometryKit, geometryKit } from '../geo/geometry';
import { isDateTimeZ } from '../util/time';
import { SPOT_CODES } from './codes';
import type { LocateRules, SpotScope } from './locate';
import { checkUuidV1, type ImageDeclaration, SPOT_LIMITS, type Spot, type SpotMessage, wrongFormat } from './model';
import type { SpotDeps, SpotWrite, TextWrite } from './service';

export interface TextInput {
  uuid: string;
  text: string;
  timestamp_usr: string;
  imgs?: Array<{ coordinate: string; uuid: string }>;
}

/** A text as sent, checked (the spot and author are filled in when it is stored). */
export type CheckedText = Pick<SpotMessage, 'uuid' | 'text' | 'timestampUsr' | 'imgs'>;

function checkText(input: TextInput, geometry: GeometryKit | undefined): CheckedText {
  const uuid = checkUuidV1(String(input.uuid ?? ''), 'text uuid');
  if (typeof input.text !== 'string' || input.text.length > SPOT_LIMITS.TEXT)
    throw wrongFormat(`text must be a string of at most ${SPOT_LIMITS.TEXT} characters`);
  if (!isDateTimeZ(input.timestamp_usr))
    throw wrongFormat('timestamp_usr must be a real date-time YYYY-MM-DDTHH:MM:SSZ');
  const sent = input.imgs ?? [];
  if (sent.length > SPOT_LIMITS.IMAGES_PER_TEXT)
    throw wrongFormat(`a text declares at most ${SPOT_LIMITS.IMAGES_PER_TEXT} images`);
  const imgs: ImageDeclaration[] = sent.map((img) => {
    let coordinate: string;
    try {
      coordinate = geometry!.toWkt(geometry!.parseGeometry(String(img.coordinate ?? ''), ['Point']));
    } catch (error) {
      if (error instanceof GeometryError) throw wrongFormat(`image coordinate must be a WKT POINT: ${error.message}`);
      throw error;
    }
    return { uuid: checkUuidV1(String(img.uuid ?? ''), 'image uuid'), coordinate };
  });
  return { uuid, text: input.text, timestampUsr: input.timestamp_usr, imgs };
}

/** Checks every text of a request before anything is written: forms, bounds, no uuid twice. */
export async function checkTexts(inputs: TextInput[]): Promise<CheckedText[]> {
  if (inputs.length > SPOT_LIMITS.TEXTS) throw wrongFormat(`at most ${SPOT_LIMITS.TEXTS} texts per request`);
  // image coordinates are WKT points: the geometry kit is loaded when a text declares an image
  const geometry = inputs.some((input) => (input.imgs ?? []).length > 0) ? await geometryKit() : undefined;
  const texts = inputs.map((input) => checkText(input, geometry));
  if (new Set(texts.map((t) => t.uuid)).size !== texts.length) throw wrongFormat('a text uuid is sent twice');
  const images = texts.flatMap((t) => t.imgs.map((i) => i.uuid));
  if (new Set(images).size !== images.length) throw wrongFormat('an image uuid is declared twice');
  return texts;
}

const sameText = (a: CheckedText, b: CheckedText) =>
  a.text === b.text && a.timestampUsr === b.timestampUsr && JSON.stringify(a.imgs) === JSON.stringify(b.imgs);

/** What a request does to a spot's texts: the writes, the count changes, the files to delete after. */
export interface TextChanges {
  texts: TextWrite[];
  removed: SpotMessage[];
  declared: Array<{ spotId: number; image: ImageDeclaration }>;
  undeclared: Array<{ spotId: number; uuid: string }>;
  messages: number;
  images: number;
  /** Image uuids whose files go once the write succeeded. */
  releasedImages: string[];
  added: string[];
}

/** The parts of a spot write that carry text changes. */
export const textWrite = (changes: TextChanges): SpotWrite => ({
  texts: changes.texts,
  textsRemoved: changes.removed,
  imagesDeclared: changes.declared,
  imagesRemoved: changes.undeclared,
});

export const hasTextWrites = (changes: TextChanges) =>
  changes.texts.length + changes.removed.length + changes.declared.length + changes.undeclared.length > 0;

/**
 * The changes that make the spot's texts `wanted`: a text not stored yet is added; a text stored
 * with the same content is left as it is; with `replace`, a stored text sent with other content is
 * updated (its images follow the list sent) and a stored text not sent is removed with its images.
 */
export function textChanges(
  principal: Principal,
  spot: Spot,
  stored: SpotMessage[],
  wanted: CheckedText[],
  replace: boolean,
  now: Date,
): TextChanges {
  const changes: TextChanges = {
    texts: [],
    removed: [],
    declared: [],
    undeclared: [],
    messages: 0,
    images: 0,
    releasedImages: [],
    added: [],
  };
  const byUuid = new Map(stored.map((m) => [m.uuid, m]));
  const at = now.toISOString();
  const storedImages = new Set(stored.flatMap((m) => m.imgs.map((i) => i.uuid)));
  const wantedImages = new Set(wanted.flatMap((t) => t.imgs.map((i) => i.uuid)));
  for (const text of wanted) {
    const current = byUuid.get(text.uuid);
    if (!current) {
      changes.texts.push({
        message: { ...text, spotId: spot.id, createdAt: at, createdBy: principal.user.id },
        isNew: true,
      });
      changes.messages += 1;
      changes.added.push(text.uuid);
    } else if (replace && !sameText(current, text)) {
      // Updated: it moves when the time stamp changed.
      changes.texts.push({
        message: { ...text, spotId: spot.id, createdAt: current.createdAt, createdBy: current.createdBy },
        isNew: false,
        ...(current.timestampUsr !== text.timestampUsr ? { movedFrom: current.timestampUsr } : {}),
      });
    } else continue;
    for (const img of text.imgs) {
      if (!storedImages.has(img.uuid)) {
        changes.declared.push({ spotId: spot.id, image: img });
        changes.images += 1;
      } else if (!replace && !current) {
        throw wrongFormat(`image ${img.uuid} is already declared in another text of the spot`);
      }
    }
  }
  if (replace) {
    const sent = new Set(wanted.map((t) => t.uuid));
    for (const message of stored) {
      if (!sent.has(message.uuid)) {
        changes.removed.push(message);
        changes.messages -= 1;
      }
    }
    for (const uuid of storedImages) {
      if (!wantedImages.has(uuid)) {
        changes.undeclared.push({ spotId: spot.id, uuid });
        changes.images -= 1;
        changes.releasedImages.push(uuid);
      }
    }
  }
  return changes;
}

export interface MessagePage {
  messages: SpotMessage[];
  continues: boolean;
}

const messageNotFound = (uuid: string) => new NotFound(`message ${uuid} not found`, { code: SPOT_CODES.NOT_FOUND });

/** A request's writes do not fit in one transaction. */
export const tooLarge = () =>
  wrongFormat('the request changes too many texts, images and tags at once; send fewer in one request');

export function messageRules(
  { repository, images, now = () => new Date() }: Pick<SpotDeps, 'repository' | 'images' | 'now'>,
  locate: LocateRules,
) {
  return {
    /** The spot's texts, newest first. */
    messagesOf: (spotId: number) => repository.messages(spotId),

    /** POST /api/spots/msgs: adds texts to a spot; those already there (same uuid) are kept as they are. */
    async addMessages(principal: Principal, scope: SpotScope, texts: TextInput[]): Promise<string[]> {
      const checked = await checkTexts(texts);
      const changes = textChanges(
        principal,
        scope.spot,
        await repository.messages(scope.spot.id),
        checked,
        false,
        now(),
      );
      if (!hasTextWrites(changes)) return [];
      await repository.write(
        { ...textWrite(changes), counters: { spot: scope.spot, messages: changes.messages, images: changes.images } },
        spotWriteRefusals,
      );
      return changes.added;
    },

    /** Messages of a spot, newest first: `pageSize` of them from row `offset` on; pageSize -1 gives all. */
    async listMessages(spotId: number, offset: number, pageSize: number): Promise<MessagePage> {
      const all = pageSize < 0;
      const messages = await repository.messages(spotId, all ? undefined : offset + pageSize + 1);
      if (all) return { messages, continues: false };
      return { messages: messages.slice(offset, offset + pageSize), continues: messages.length > offset + pageSize };
    },

    /** Deletes a message of a spot the caller may change, with its images. */
    async deleteMessage(principal: Principal, messageUuid: string): Promise<void> {
      const { scope, message } = await locate.locateMessage(principal, messageUuid, 'write', () =>
        messageNotFound(messageUuid),
      );
      await repository.write(
        {
          textsRemoved: [message],
          imagesRemoved: message.imgs.map((img) => ({ spotId: scope.spot.id, uuid: img.uuid })),
          counters: { spot: scope.spot, messages: -1, images: -message.imgs.length },
        },
        { ...spotWriteRefusals, gone: () => messageNotFound(messageUuid) },
      );
      await images.remove(
        scope.spot.id,
        message.imgs.map((img) => img.uuid),
      );
    },
  };
}

export type MessageRules = ReturnType<typeof messageRules>;

/** The refusals of a spot write (lib/spots/service.ts SpotWriteRefusals). */
export const spotWriteRefusals = {
  tooLarge,
  fieldNotFound: (fieldId: number) => new NotFound(`field ${fieldId} not found`, { code: SPOT_CODES.NOT_FOUND }),
  uuidTaken: (fieldId: number) => wrongFormat(`a spot of this uuid already exists in field ${fieldId}`),
  gone: () => new NotFound('the spot is gone', { code: SPOT_CODES.NOT_FOUND }),
};
