// Farm tags and field tags (spec 2): a user's labels (text and colour) attached to the farms and
// fields it can read. Tags belong to the user; deleting a tag removes its links.
//
// The service is built from its repository and gate (services take them as parameters): its rules
// run against DynamoDB in the functions (lib/tags/repository.ts, wired in lib/tags/instance.ts) and
// against memory in tests/unit/tags.test.ts.
import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/principal';
import type { FieldGate } from '../authz/gate';
import { type EntityOf, entity, num, str } from '../db/entity';
import { Conflict, type DomainError, Forbidden, Invalid, NotFound } from '../errors';
import { TAG_CODES } from './codes';

export const Tag = entity('farm_tag', { id: num('id'), userId: num('user_id'), tag: str('tag'), color: str('color') });
export type Tag = EntityOf<typeof Tag>;

/** What a tag is attached to. */
export type TagTarget = { farmId: number } | { fieldId: number };

/** Where tags and their links are kept. */
export interface TagRepository {
  nextId(): Promise<number>;
  tag(userId: number, tagId: number): Promise<Tag | undefined>;
  tagsOf(userId: number): Promise<Tag[]>;
  /** The user's tags among these ids (ids of deleted tags are skipped). */
  tagsByIds(userId: number, tagIds: number[]): Promise<Tag[]>;
  /** Ids of the user's tags linked to a farm or field. */
  linked(userId: number, target: TagTarget): Promise<number[]>;
  /** Stores a tag (its name unique per user: `nameTaken`), linked to a farm when given. */
  create(tag: Tag, link: TagTarget | undefined, nameTaken: () => DomainError): Promise<void>;
  /** Changes a tag's text and colour (`nameTaken` for a name in use, `gone` when it was deleted meanwhile). */
  update(next: Tag, previous: Tag, refuse: { nameTaken: () => DomainError; gone: () => DomainError }): Promise<void>;
  /** Deletes a tag and every link of it (`gone` when it was deleted meanwhile). */
  remove(tag: Tag, gone: () => DomainError): Promise<void>;
  /** Links a tag that still exists (`tagGone`) to a field that still exists (`targetGone`). */
  link(
    userId: number,
    tagId: number,
    target: TagTarget,
    refuse: { tagGone: () => DomainError; targetGone: () => DomainError },
  ): Promise<void>;
  unlink(userId: number, tagId: number, target: TagTarget): Promise<void>;
}

const COLOR = /^[0-9A-Fa-f]{6}$/;
export const TAG_MAX = 100;

export const randomColor = (): string => randomBytes(3).toString('hex').toUpperCase();

function checkColor(color: string): string {
  if (!COLOR.test(color)) {
    throw new Invalid('Formato de color inválido: se esperan 6 caracteres hexadecimales sin #', {
      code: TAG_CODES.INVALID_COLOR,
    });
  }
  return color; // as the client sent it (either case)
}

function checkText(desc: string): string {
  const text = desc.trim();
  if (!text || text.length > TAG_MAX) {
    throw new Invalid(`La descripción es obligatoria y tiene a lo sumo ${TAG_MAX} caracteres`, {
      code: TAG_CODES.MISSING,
    });
  }
  return text;
}

const unknownTag = (tagId: number) =>
  new NotFound(`La etiqueta ${tagId} no existe`, { code: TAG_CODES.EXISTS_OR_UNKNOWN });
const nameTaken = (text: string, code: number) => () =>
  new Conflict(`Ya existe una etiqueta con el nombre '${text}'`, { code });

export interface CreateTagInput {
  desc: string;
  color?: string;
  farmId?: number;
}

export interface UpdateTagInput {
  tagId: number;
  desc?: string;
  color?: string;
}

/** A field named by uuid (preferred) or id. */
export type FieldRef = { field_uuid?: string; field_id?: number };

export function tagsService({ repository, gate }: { repository: TagRepository; gate: FieldGate }) {
  async function requireTag(userId: number, tagId: number): Promise<Tag> {
    const tag = await repository.tag(userId, tagId);
    if (!tag) throw unknownTag(tagId);
    return tag;
  }

  /** A farm the caller can read, for labelling. */
  async function readableFarm(principal: Principal, farmId: number): Promise<void> {
    const unknown = () => new NotFound(`El campo ${farmId} no existe`, { code: TAG_CODES.EXISTS_OR_UNKNOWN });
    await gate.farm(principal, farmId, 'read', { notFound: unknown, forbidden: unknown });
  }

  const tagsOn = async (userId: number, target: TagTarget) =>
    repository.tagsByIds(userId, await repository.linked(userId, target));

  /** Field tags answer 403 when the field cannot be read and 400 for an unknown tag (spec: 200/400/401/403). */
  async function checkFieldTagging(principal: Principal, ref: FieldRef, tagId: number): Promise<number> {
    const lacking = () => new Forbidden('the user lacks permissions over the field');
    const refuse = { notFound: lacking, forbidden: lacking };
    const { field } =
      ref.field_uuid !== undefined
        ? await gate.fieldByUuid(principal, ref.field_uuid, 'read', refuse)
        : await gate.field(principal, ref.field_id!, 'read', refuse);
    if (!(await repository.tag(principal.user.id, tagId))) throw new Invalid(`tag ${tagId} does not exist`);
    return field.id;
  }

  return {
    requireTag,
    tagsOfUser: (userId: number) => repository.tagsOf(userId),

    /** The caller's tags on a farm it can read. */
    async tagsOfReadableFarm(principal: Principal, farmId: number): Promise<Tag[]> {
      await readableFarm(principal, farmId);
      return tagsOn(principal.user.id, { farmId });
    },

    async createTag(principal: Principal, input: CreateTagInput): Promise<Tag> {
      const userId = principal.user.id;
      const text = checkText(input.desc);
      const color = input.color === undefined || input.color === '' ? randomColor() : checkColor(input.color);
      if (input.farmId !== undefined) await readableFarm(principal, input.farmId);
      const tag: Tag = { id: await repository.nextId(), userId, tag: text, color };
      await repository.create(
        tag,
        input.farmId !== undefined ? { farmId: input.farmId } : undefined,
        nameTaken(text, TAG_CODES.EXISTS_OR_UNKNOWN),
      );
      return tag;
    },

    /** Changes text and/or colour; as the spec says, the colour is random when not sent. */
    async updateTag(principal: Principal, input: UpdateTagInput): Promise<Tag> {
      const userId = principal.user.id;
      const hasDesc = input.desc !== undefined && input.desc !== '';
      const hasColor = input.color !== undefined && input.color !== '';
      if (!hasDesc && !hasColor) throw new Invalid('Se requiere desc o color', { code: TAG_CODES.MISSING });
      const color = hasColor ? checkColor(input.color!) : randomColor();
      const current = await requireTag(userId, input.tagId);
      const next = { ...current, tag: hasDesc ? checkText(input.desc!) : current.tag, color };
      await repository.update(next, current, {
        nameTaken: nameTaken(next.tag, TAG_CODES.NAME_TAKEN_ON_UPDATE),
        gone: () => unknownTag(input.tagId),
      });
      return next;
    },

    /** Deletes the tag and every link of it, to farms and to fields. */
    async deleteTag(principal: Principal, tagId: number): Promise<void> {
      await repository.remove(await requireTag(principal.user.id, tagId), () => unknownTag(tagId));
    },

    async linkFarm(principal: Principal, tagId: number, farmId: number): Promise<Tag[]> {
      const userId = principal.user.id;
      await requireTag(userId, tagId);
      await readableFarm(principal, farmId);
      await repository.link(
        userId,
        tagId,
        { farmId },
        { tagGone: () => unknownTag(tagId), targetGone: () => unknownTag(tagId) },
      );
      return tagsOn(userId, { farmId });
    },

    async unlinkFarm(principal: Principal, tagId: number, farmId: number): Promise<Tag[]> {
      const userId = principal.user.id;
      await requireTag(userId, tagId);
      await readableFarm(principal, farmId);
      await repository.unlink(userId, tagId, { farmId });
      return tagsOn(userId, { farmId });
    },

    async linkField(principal: Principal, ref: FieldRef, tagId: number): Promise<Tag[]> {
      const fieldId = await checkFieldTagging(principal, ref, tagId);
      const userId = principal.user.id;
      await repository.link(
        userId,
        tagId,
        { fieldId },
        {
          tagGone: () => new Invalid(`tag ${tagId} does not exist`),
          targetGone: () => new Forbidden('the field no longer exists'),
        },
      );
      return tagsOn(userId, { fieldId });
    },

    async unlinkField(principal: Principal, ref: FieldRef, tagId: number): Promise<Tag[]> {
      const fieldId = await checkFieldTagging(principal, ref, tagId);
      await repository.unlink(principal.user.id, tagId, { fieldId });
      return tagsOn(principal.user.id, { fieldId });
    },
  };
}
