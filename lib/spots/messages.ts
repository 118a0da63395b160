// Spot messages (spec 1): texts with images declared by uuid, kept under their spot, newest first
// by the user's own time stamp. A text's uuid names it within its spot. Everything a request does
// to texts is validated first and written in the same transaction as the rest of the request.
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import { EXISTS, getItem, NOT_EXISTS, queryAll, transact, tx, type TxOp } from '../db/table';
import { NotFound } from '../errors';
import { GeometryError, parseGeometry, toWkt } from '../geo/wkt';
import { isDateTimeZ } from '../util/time';
import type { Principal } from '../auth/principal';
import { checkUuidV1, SpotMessage, SPOT_CODES, SPOT_LIMITS, wrongFormat, type ImageDeclaration, Spot } from './model';
import { deleteImageObjects } from './images';
import { locateByRefs, type SpotScope } from './locate';

export interface TextInput {
  uuid: string;
  text: string;
  timestamp_usr: string;
  imgs?: Array<{ coordinate: string; uuid: string }>;
}

/** A text as sent, checked (the spot and author are filled in when it is stored). */
export type CheckedText = Pick<SpotMessage, 'uuid' | 'text' | 'timestampUsr' | 'imgs'>;

function checkText(input: TextInput): CheckedText {
  const uuid = checkUuidV1(String(input.uuid ?? ''), 'text uuid');
  if (typeof input.text !== 'string' || input.text.length > SPOT_LIMITS.TEXT) throw wrongFormat(`text must be a string of at most ${SPOT_LIMITS.TEXT} characters`);
  if (!isDateTimeZ(input.timestamp_usr)) throw wrongFormat('timestamp_usr must be a real date-time YYYY-MM-DDTHH:MM:SSZ');
  const sent = input.imgs ?? [];
  if (sent.length > SPOT_LIMITS.IMAGES_PER_TEXT) throw wrongFormat(`a text declares at most ${SPOT_LIMITS.IMAGES_PER_TEXT} images`);
  const imgs: ImageDeclaration[] = sent.map((img) => {
    let coordinate: string;
    try {
      coordinate = toWkt(parseGeometry(String(img.coordinate ?? ''), ['Point']));
    } catch (error) {
      if (error instanceof GeometryError) throw wrongFormat(`image coordinate must be a WKT POINT: ${error.message}`);
      throw error;
    }
    return { uuid: checkUuidV1(String(img.uuid ?? ''), 'image uuid'), coordinate };
  });
  return { uuid, text: input.text, timestampUsr: input.timestamp_usr, imgs };
}

/** Checks every text of a request before anything is written: forms, bounds, no uuid twice. */
export function checkTexts(inputs: TextInput[]): CheckedText[] {
  if (inputs.length > SPOT_LIMITS.TEXTS) throw wrongFormat(`at most ${SPOT_LIMITS.TEXTS} texts per request`);
  const texts = inputs.map(checkText);
  if (new Set(texts.map((t) => t.uuid)).size !== texts.length) throw wrongFormat('a text uuid is sent twice');
  const images = texts.flatMap((t) => t.imgs.map((i) => i.uuid));
  if (new Set(images).size !== images.length) throw wrongFormat('an image uuid is declared twice');
  return texts;
}

const sameText = (a: CheckedText, b: CheckedText) =>
  a.text === b.text && a.timestampUsr === b.timestampUsr && JSON.stringify(a.imgs) === JSON.stringify(b.imgs);

/** What a request does to a spot's texts: the transaction items, the count changes, the files to delete after. */
export interface TextChanges {
  ops: TxOp[];
  messages: number;
  images: number;
  /** Image uuids whose files go once the transaction succeeded. */
  releasedImages: string[];
  added: string[];
}

const taken = (what: string) => () => new LostRace(`${what} was stored meanwhile`);

/** The text's item and its ref; a new text's ref must not exist yet (the guard against a concurrent add). */
function putText(spot: Spot, text: CheckedText, author: number, createdAt: string, isNew: boolean): TxOp[] {
  const message: SpotMessage = { ...text, spotId: spot.id, createdAt, createdBy: author };
  const item = { ...keys.spotMessage(spot.id, text.timestampUsr, text.uuid), ...SpotMessage.toItem(message) };
  const ref = { ...keys.messageRef(text.uuid, spot.id), kind: 'message_ref', spot_id: spot.id, message_sk: item.sk };
  return [tx.put(item), isNew ? tx.put(ref, NOT_EXISTS, taken(`text ${text.uuid}`)) : tx.put(ref)];
}

const declareImage = (spot: Spot, img: ImageDeclaration): TxOp =>
  tx.put(
    { ...keys.spotImage(img.uuid, spot.id), kind: 'spot_image', uuid: img.uuid, spot_id: spot.id, coordinate: img.coordinate, uploaded: false },
    NOT_EXISTS,
    taken(`image ${img.uuid}`),
  );

/**
 * The changes that make the spot's texts `wanted`: a text not stored yet is added; a text stored
 * with the same content is left as it is; with `replace`, a stored text sent with other content is
 * updated (its images follow the list sent) and a stored text not sent is removed with its images.
 */
export function textChanges(principal: Principal, spot: Spot, stored: SpotMessage[], wanted: CheckedText[], replace: boolean): TextChanges {
  const changes: TextChanges = { ops: [], messages: 0, images: 0, releasedImages: [], added: [] };
  const byUuid = new Map(stored.map((m) => [m.uuid, m]));
  const now = new Date().toISOString();
  const storedImages = new Set(stored.flatMap((m) => m.imgs.map((i) => i.uuid)));
  const wantedImages = new Set(wanted.flatMap((t) => t.imgs.map((i) => i.uuid)));
  for (const text of wanted) {
    const current = byUuid.get(text.uuid);
    if (!current) {
      changes.ops.push(...putText(spot, text, principal.user.id, now, true));
      changes.messages += 1;
      changes.added.push(text.uuid);
    } else if (replace && !sameText(current, text)) {
      // Updated: its item moves when the time stamp changed.
      if (current.timestampUsr !== text.timestampUsr) changes.ops.push(tx.delete(keys.spotMessage(spot.id, current.timestampUsr, current.uuid)));
      changes.ops.push(...putText(spot, text, current.createdBy, current.createdAt, false));
    } else continue;
    for (const img of text.imgs) {
      if (!storedImages.has(img.uuid)) {
        changes.ops.push(declareImage(spot, img));
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
        changes.ops.push(tx.delete(keys.spotMessage(spot.id, message.timestampUsr, message.uuid)), tx.delete(keys.messageRef(message.uuid, spot.id)));
        changes.messages -= 1;
      }
    }
    for (const uuid of storedImages) {
      if (!wantedImages.has(uuid)) {
        changes.ops.push(tx.delete(keys.spotImage(uuid, spot.id)));
        changes.images -= 1;
        changes.releasedImages.push(uuid);
      }
    }
  }
  return changes;
}

/** Changes the spot's message and image counts (and its version, so that a concurrent change retries). */
export const spotCounters = (spot: Spot, messages: number, images: number): TxOp =>
  tx.update(
    keys.spot(spot.fieldId, spot.uuid),
    { expression: 'ADD total_msgs :m, total_imgs :i, version :one', condition: 'version = :version', values: { ':m': messages, ':i': images, ':one': 1, ':version': spot.version } },
    () => new LostRace('the spot changed meanwhile'),
  );

/** POST /api/spots/msgs: adds texts to a spot; those already there (same uuid) are kept as they are. */
export async function addMessages(principal: Principal, scope: SpotScope, texts: TextInput[]): Promise<string[]> {
  const checked = checkTexts(texts);
  const changes = textChanges(principal, scope.spot, await messagesOf(scope.spot.id), checked, false);
  if (!changes.ops.length) return [];
  if (changes.ops.length > 99) throw wrongFormat('too many texts and images in one request');
  await transact([...changes.ops, spotCounters(scope.spot, changes.messages, changes.images)]);
  return changes.added;
}

export interface MessagePage {
  messages: SpotMessage[];
  continues: boolean;
}

/** Messages of a spot, newest first: `pageSize` of them from row `offset` on; pageSize -1 gives all. */
export async function listMessages(spotId: number, offset: number, pageSize: number): Promise<MessagePage> {
  const all = pageSize < 0;
  const wanted = all ? undefined : offset + pageSize + 1;
  const messages = (await queryAll({ ...keys.spotMessagesPrefix(spotId), descending: true, limit: wanted })).map(SpotMessage.fromItem);
  if (all) return { messages, continues: false };
  return { messages: messages.slice(offset, offset + pageSize), continues: messages.length > offset + pageSize };
}

const messageNotFound = (uuid: string) => new NotFound(`message ${uuid} not found`, { code: SPOT_CODES.NOT_FOUND });

/** Deletes a message of a spot the caller may change, with its images. */
export async function deleteMessage(principal: Principal, messageUuid: string): Promise<void> {
  const { scope, ref } = await locateByRefs(principal, keys.messageRefs(messageUuid), 'write', () => messageNotFound(messageUuid));
  const item = await getItem({ pk: keys.spotMessagesPrefix(scope.spot.id).pk, sk: String(ref.message_sk) });
  if (!item) throw messageNotFound(messageUuid);
  const message = SpotMessage.fromItem(item);
  await transact([
    tx.delete({ pk: String(item.pk), sk: String(item.sk) }, EXISTS, () => messageNotFound(messageUuid)),
    tx.delete(keys.messageRef(messageUuid, scope.spot.id)),
    ...message.imgs.map((img) => tx.delete(keys.spotImage(img.uuid, scope.spot.id))),
    spotCounters(scope.spot, -1, -message.imgs.length),
  ]);
  await deleteImageObjects(scope.spot.id, message.imgs.map((img) => img.uuid));
}

export async function messagesOf(spotId: number): Promise<SpotMessage[]> {
  return (await queryAll({ ...keys.spotMessagesPrefix(spotId), descending: true })).map(SpotMessage.fromItem);
}

