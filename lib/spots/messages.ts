// Spot messages (spec 1): texts with images declared by uuid, kept under the spot, newest first
// by the user's own time stamp. A text sent again (same uuid) is kept once.
import { keys } from '../db/keys';
import { getItem, queryAll, transact, tx, NOT_EXISTS, EXISTS, type TxOp } from '../db/table';
import { Conflict, Invalid, NotFound } from '../errors';
import { GeometryError, parseGeometry, toWkt } from '../geo/wkt';
import type { Principal } from '../auth/principal';
import { checkUuidV1, messageFromItem, SPOT_CODES, type ImageDeclaration, type SpotMessage } from './model';
import type { SpotScope } from './spots';
import { deleteImageObjects } from './images';

export interface TextInput {
  uuid: string;
  text: string;
  timestamp_usr: string;
  imgs?: Array<{ coordinate: string; uuid: string }>;
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const TEXT_MAX = 5000;

const invalid = (message: string) => new Invalid(message, { code: SPOT_CODES.WRONG_FORMAT });

function checkText(input: TextInput): SpotMessage {
  const uuid = checkUuidV1(input.uuid, 'text uuid');
  if (typeof input.text !== 'string' || input.text.length > TEXT_MAX) throw invalid(`text must be a string of at most ${TEXT_MAX} characters`);
  if (!TIMESTAMP.test(input.timestamp_usr ?? '')) throw invalid('timestamp_usr must be YYYY-MM-DDTHH:MM:SSZ');
  const imgs: ImageDeclaration[] = (input.imgs ?? []).map((img) => {
    let coordinate: string;
    try {
      coordinate = toWkt(parseGeometry(String(img.coordinate ?? ''), ['Point']));
    } catch (error) {
      if (error instanceof GeometryError) throw invalid(`image coordinate must be a WKT POINT: ${error.message}`);
      throw error;
    }
    return { uuid: checkUuidV1(String(img.uuid ?? ''), 'image uuid'), coordinate };
  });
  if (new Set(imgs.map((i) => i.uuid)).size !== imgs.length) throw invalid('an image uuid is declared twice');
  return { uuid, spotUuid: '', text: input.text, timestampUsr: input.timestamp_usr, imgs, createdAt: '', createdBy: 0 };
}

/** Changes the spot's message and image counts (and its version, so that a concurrent change retries). */
export const spotCounters = (scope: SpotScope, messages: number, images: number): TxOp =>
  tx.update(
    keys.spot(scope.spot.fieldId, scope.spot.uuid),
    { expression: 'ADD total_msgs :m, total_imgs :i, version :one', condition: EXISTS, values: { ':m': messages, ':i': images, ':one': 1 } },
    () => new NotFound(`spot ${scope.spot.uuid} not found`, { code: SPOT_CODES.NOT_FOUND }),
  );

/** Adds texts to a spot; those already there (same uuid) are left as they are. */
export async function addMessages(principal: Principal, scope: SpotScope, texts: TextInput[]): Promise<string[]> {
  const checked = texts.map(checkText);
  const added: string[] = [];
  for (const message of checked) {
    const now = new Date().toISOString();
    const item = {
      ...keys.spotMessage(scope.spot.uuid, message.timestampUsr, message.uuid),
      kind: 'spot_message',
      uuid: message.uuid,
      spot_uuid: scope.spot.uuid,
      text: message.text,
      timestamp_usr: message.timestampUsr,
      imgs: message.imgs,
      created_at: now,
      created_by: principal.user.id,
    };
    const ops: TxOp[] = [
      tx.put({ ...keys.messageRef(message.uuid), kind: 'message_ref', spot_uuid: scope.spot.uuid, message_sk: item.sk }, NOT_EXISTS, () =>
        new Conflict('message already stored', { code: 'DUPLICATE' }),
      ),
      tx.put(item),
      ...message.imgs.map((img) =>
        tx.put(
          { ...keys.spotImage(img.uuid), kind: 'spot_image', uuid: img.uuid, spot_uuid: scope.spot.uuid, message_uuid: message.uuid, coordinate: img.coordinate, uploaded: false },
          NOT_EXISTS,
          () => invalid(`image ${img.uuid} is already declared in another text`),
        ),
      ),
      spotCounters(scope, 1, message.imgs.length),
    ];
    try {
      await transact(ops);
      added.push(message.uuid);
    } catch (error) {
      if (error instanceof Conflict && error.code === 'DUPLICATE') continue; // sent again: kept once
      throw error;
    }
  }
  return added;
}

export interface MessagePage {
  messages: SpotMessage[];
  continues: boolean;
}

/** Messages of a spot, newest first; page_size -1 gives all. */
export async function listMessages(spotUuid: string, page: number, pageSize: number): Promise<MessagePage> {
  const { pk, skPrefix } = keys.spotMessagesPrefix(spotUuid);
  const all = pageSize < 0;
  const wanted = all ? undefined : (page + 1) * pageSize + 1;
  const items = await queryAll({ pk, skPrefix, descending: true, limit: wanted });
  const messages = items.map(messageFromItem);
  if (all) return { messages, continues: false };
  return { messages: messages.slice(page * pageSize, (page + 1) * pageSize), continues: messages.length > (page + 1) * pageSize };
}

/** Deletes a message and its images; `locate` finds the spot for a caller who may change it. */
export async function deleteMessage(messageUuid: string, locate: (spotUuid: string) => Promise<SpotScope>): Promise<void> {
  const ref = await getItem(keys.messageRef(messageUuid));
  if (!ref) throw new NotFound(`message ${messageUuid} not found`, { code: SPOT_CODES.NOT_FOUND });
  const scope = await locate(String(ref.spot_uuid));
  const item = await getItem({ pk: keys.spotMessagesPrefix(scope.spot.uuid).pk, sk: String(ref.message_sk) });
  if (!item) throw new NotFound(`message ${messageUuid} not found`, { code: SPOT_CODES.NOT_FOUND });
  const message = messageFromItem(item);
  await transact([
    tx.delete({ pk: String(item.pk), sk: String(item.sk) }, EXISTS, () => new NotFound(`message ${messageUuid} not found`, { code: SPOT_CODES.NOT_FOUND })),
    tx.delete(keys.messageRef(messageUuid)),
    ...message.imgs.map((img) => tx.delete(keys.spotImage(img.uuid))),
    spotCounters(scope, -1, -message.imgs.length),
  ]);
  await deleteImageObjects(scope.spot.uuid, message.imgs.map((img) => img.uuid));
}

export async function messagesOf(spotUuid: string): Promise<SpotMessage[]> {
  const { pk, skPrefix } = keys.spotMessagesPrefix(spotUuid);
  return (await queryAll({ pk, skPrefix, descending: true })).map(messageFromItem);
}
