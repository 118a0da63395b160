// The one place that builds DynamoDB keys. Layout and access patterns: docs/data-model.md.
// Numeric ids are zero-padded in sort keys so that items sort by id.

export interface Key {
  pk: string;
  sk: string;
}

export const pad = (id: number): string => String(id).padStart(10, '0');

/** Case- and space-insensitive form of a name, for uniqueness items. */
export const normalizeName = (name: string): string => name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('es');

/** Who owns a webhook subscription: a user, through an extension ('' for the user's own session). */
export interface WebhookOwner {
  userId: number;
  extensionId: string;
}
const webhookPk = (owner: WebhookOwner, subscriptionUuid: string) =>
  `WEBHOOK#${owner.userId}#${encodeURIComponent(owner.extensionId)}#${subscriptionUuid.toLowerCase()}`;

/**
 * The sort keys of a list in date order (`<YYYY-MM-DD>#...`) from `dateFrom` to `dateTo`, both
 * included, when either is given: the condition of a labour index query.
 */
const datesBetween = (dateFrom?: string, dateTo?: string) =>
  dateFrom === undefined && dateTo === undefined
    ? {}
    : { skBetween: [dateFrom ?? '0', `${dateTo ?? '9999-12-31'}#~`] as const };

export const keys = {
  counter: (name: string): Key => ({ pk: 'COUNTER', sk: name }),
  signingKey: (kid: string): Key => ({ pk: 'SYSTEM', sk: `JWK#${kid}` }),
  /** Written when a backfill of index attributes has reached every item (lib/db/backfills.ts). */
  backfill: (name: string): Key => ({ pk: 'SYSTEM', sk: `BACKFILL#${name}` }),
  processedMessage: (id: string): Key => ({ pk: `PROCESSED#${id}`, sk: 'MESSAGE' }),

  user: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  userAccessPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'ACCESS#' }),
  userFarmAccess: (userId: number, farmId: number): Key => ({
    pk: `USER#${userId}`,
    sk: `ACCESS#FARM#${pad(farmId)}`,
  }),
  userFieldAccess: (userId: number, fieldId: number): Key => ({
    pk: `USER#${userId}`,
    sk: `ACCESS#FIELD#${pad(fieldId)}`,
  }),
  userFarmName: (userId: number, farmName: string): Key => ({
    pk: `USER#${userId}`,
    sk: `FARMNAME#${normalizeName(farmName)}`,
  }),
  supervision: (supervisorId: number, userId: number): Key => ({
    pk: `USER#${supervisorId}`,
    sk: `SUPERVISES#${pad(userId)}`,
  }),
  supervisionsPrefix: (supervisorId: number) => ({ pk: `USER#${supervisorId}`, skPrefix: 'SUPERVISES#' }),
  /** gsi1 of a supervision: the supervisors of a user. */
  supervisedByIndex: (userId: number, supervisorId: number) => ({
    gsi1pk: `USER#${userId}`,
    gsi1sk: `SUPERVISED_BY#${pad(supervisorId)}`,
  }),
  /** The supervisors of a user (gsi1; their ids end the index's sort keys). */
  supervisorsOf: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'SUPERVISED_BY#', index: 'gsi1' as const }),

  space: (spaceId: number): Key => ({ pk: `SPACE#${spaceId}`, sk: 'PROFILE' }),
  spaceMember: (spaceId: number, userId: number): Key => ({
    pk: `SPACE#${spaceId}`,
    sk: `MEMBER#${pad(userId)}`,
  }),

  farm: (farmId: number): Key => ({ pk: `FARM#${farmId}`, sk: 'PROFILE' }),
  farmFieldsPrefix: (farmId: number) => ({ pk: `FARM#${farmId}`, skPrefix: 'FIELD#' }),
  farmField: (farmId: number, fieldId: number): Key => ({
    pk: `FARM#${farmId}`,
    sk: `FIELD#${pad(fieldId)}`,
  }),
  farmFieldName: (farmId: number, fieldName: string): Key => ({
    pk: `FARM#${farmId}`,
    sk: `FIELDNAME#${normalizeName(fieldName)}`,
  }),
  farmShare: (farmId: number, userId: number): Key => ({
    pk: `FARM#${farmId}`,
    sk: `SHARE#${pad(userId)}`,
  }),

  /** Everything that hangs from a field lives in its partition (deleted with it). */
  field: (fieldId: number): Key => ({ pk: `FIELD#${fieldId}`, sk: 'PROFILE' }),
  fieldPartition: (fieldId: number) => ({ pk: `FIELD#${fieldId}` }),
  fieldShare: (fieldId: number, userId: number): Key => ({
    pk: `FIELD#${fieldId}`,
    sk: `SHARE#${pad(userId)}`,
  }),
  /** Every share of a farm, or of a field (the users they name: `shareUserOf`). */
  farmSharesPrefix: (farmId: number) => ({ pk: `FARM#${farmId}`, skPrefix: 'SHARE#' }),
  fieldSharesPrefix: (fieldId: number) => ({ pk: `FIELD#${fieldId}`, skPrefix: 'SHARE#' }),
  /** Farm id of a farm uuid. */
  farmByUuid: (uuid: string): Key => ({ pk: `FARMUUID#${uuid.toLowerCase()}`, sk: 'FARM' }),
  /** Field id of a field uuid. */
  fieldByUuid: (uuid: string): Key => ({ pk: `FIELDUUID#${uuid.toLowerCase()}`, sk: 'FIELD' }),

  // --- season shapes (spec 2) ----------------------------------------------------------------
  fieldShape: (fieldId: number, campaign: number): Key => ({
    pk: `FIELD#${fieldId}`,
    sk: `SHAPE#${String(campaign).padStart(4, '0')}`,
  }),
  shapeLock: (fieldId: number): Key => ({ pk: `FIELD#${fieldId}`, sk: 'SHAPELOCK' }),
  /** A date of a field's imagery layer (one scene per field, layer and day). */
  imageryDate: (fieldId: number, layer: string, day: string): Key => ({
    pk: `FIELD#${fieldId}`,
    sk: `IMAGERY#${layer}#${day}`,
  }),
  /** The dates of one layer of a field, or of every layer (satellite and from files). */
  imageryDates: (fieldId: number, layer?: string) => ({
    pk: `FIELD#${fieldId}`,
    skPrefix: layer === undefined ? 'IMAGERY#' : `IMAGERY#${layer}#`,
  }),
  /** A field's dates of a layer in the campaigns (calendar years) from `from` to `until` (inclusive). */
  imageryDatesBetween: (fieldId: number, layer: string, from: number, until?: number) => ({
    pk: `FIELD#${fieldId}`,
    skBetween: [`IMAGERY#${layer}#${from}`, `IMAGERY#${layer}#${until ?? 9999}-99`] as [string, string],
  }),
  /** A user's scale template (docs/imagery.md). */
  scaleTemplate: (userId: number, id: number): Key => ({ pk: `USER#${userId}`, sk: `SCALE#${pad(id)}` }),
  scaleTemplates: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'SCALE#' }),
  /** A webhook subscription of a user and extension (docs/integrations.md). */
  webhookSubscription: (userId: number, extensionId: string, uuid: string): Key => ({
    pk: `USER#${userId}`,
    sk: `WEBHOOK#${extensionId}#${uuid}`,
  }),
  /** A user's webhook subscriptions: of one extension, or of all. */
  webhookSubscriptions: (userId: number, extensionId?: string) => ({
    pk: `USER#${userId}`,
    skPrefix: extensionId === undefined ? 'WEBHOOK#' : `WEBHOOK#${extensionId}#`,
  }),
  /**
   * A subscription's deliveries and delivery slots live in its own partition, named by its owner
   * (user and extension) and uuid: a subscription uuid names a subscription within its owner, so
   * two owners' subscriptions of one uuid never share deliveries.
   */
  webhookDelivery: (owner: WebhookOwner, subscriptionUuid: string, deliveryId: string): Key => ({
    pk: webhookPk(owner, subscriptionUuid),
    sk: `DELIVERY#${deliveryId}`,
  }),
  webhookDeliveries: (owner: WebhookOwner, subscriptionUuid: string) => ({
    pk: webhookPk(owner, subscriptionUuid),
    skPrefix: 'DELIVERY#',
  }),
  /** One of a subscription's delivery slots: a lease held while a delivery is in flight (docs/integrations.md). */
  webhookSlot: (owner: WebhookOwner, subscriptionUuid: string, slot: number): Key => ({
    pk: webhookPk(owner, subscriptionUuid),
    sk: `SLOT#${slot}`,
  }),
  /** A user's layer file kept for POST /raster (docs/imagery.md, "Layers from files"). */
  layerUpload: (userId: number, id: string): Key => ({ pk: `USER#${userId}`, sk: `LAYERUPLOAD#${id}` }),
  /** The field's imagery run: the days still pending and the shape lock to release after them. */
  imageryRun: (fieldId: number): Key => ({ pk: `FIELD#${fieldId}`, sk: 'IMAGERYRUN' }),
  /** A tenant's first looks of a window, against its urgent share (docs/imagery.md, "Lanes"; TTL). */
  imageryShare: (userId: number, window: number): Key => ({ pk: `USER#${userId}`, sk: `IMAGERYSHARE#${window}` }),

  // --- farm and field tags (spec 2): a user's labels, linked to farms and fields ---------------
  farmTag: (userId: number, tagId: number): Key => ({ pk: `USER#${userId}`, sk: `FARMTAG#${pad(tagId)}` }),
  farmTagsPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'FARMTAG#' }),
  farmTagName: (userId: number, name: string): Key => ({
    pk: `USER#${userId}`,
    sk: `FARMTAGNAME#${normalizeName(name)}`,
  }),
  farmTagLink: (farmId: number, userId: number, tagId: number): Key => ({
    pk: `FARM#${farmId}`,
    sk: `TAG#${pad(userId)}#${pad(tagId)}`,
  }),
  farmTagLinksPrefix: (farmId: number, userId: number) => ({ pk: `FARM#${farmId}`, skPrefix: `TAG#${pad(userId)}#` }),
  fieldTagLink: (fieldId: number, userId: number, tagId: number): Key => ({
    pk: `FIELD#${fieldId}`,
    sk: `TAG#${pad(userId)}#${pad(tagId)}`,
  }),
  fieldTagLinksPrefix: (fieldId: number, userId: number) => ({
    pk: `FIELD#${fieldId}`,
    skPrefix: `TAG#${pad(userId)}#`,
  }),
  /** The index entry of a tag's link to a farm or a field (lists a tag's links). */
  tagLinksIndex: (userId: number, tagId: number, target: { farmId: number } | { fieldId: number }) => ({
    gsi1pk: `TAGLINKS#${userId}#${tagId}`,
    gsi1sk: 'farmId' in target ? `FARM#${pad(target.farmId)}` : `FIELD#${pad(target.fieldId)}`,
  }),
  tagLinksIndexPk: (userId: number, tagId: number) => `TAGLINKS#${userId}#${tagId}`,

  // --- farm metadata (spec 3) ------------------------------------------------------------------
  farmMetadata: (farmId: number): Key => ({ pk: `FARM#${farmId}`, sk: 'METADATA' }),

  // --- crops (spec 3) and rotations (spec 2) ---------------------------------------------------
  userCrop: (userId: number, cropId: number): Key => ({ pk: `USER#${userId}`, sk: `CROP#${pad(cropId)}` }),
  userCropsPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'CROP#' }),
  userCropName: (userId: number, name: string): Key => ({
    pk: `USER#${userId}`,
    sk: `CROPNAME#${normalizeName(name)}`,
  }),
  /** The campaign (cycle) of a field and yeargroup: at most one per pair. */
  campaign: (fieldId: number, yeargroup: number): Key => ({ pk: `FIELD#${fieldId}`, sk: `CAMPAIGN#${yeargroup}` }),
  rotation: (fieldId: number, rotationUuid: string): Key => ({
    pk: `FIELD#${fieldId}`,
    sk: `ROTATION#${rotationUuid.toLowerCase()}`,
  }),
  rotationsPrefix: (fieldId: number) => ({ pk: `FIELD#${fieldId}`, skPrefix: 'ROTATION#' }),
  /** gsi1 of a rotation: a farm's rotations by yeargroup, then field, so that one query lists a farm's. */
  rotationByFarmIndex: (farmId: number, yeargroup: number, fieldId: number, uuid: string) => ({
    gsi1pk: `FARMROTATIONS#${farmId}`,
    gsi1sk: `${String(yeargroup).padStart(4, '0')}#${pad(fieldId)}#${uuid.toLowerCase()}`,
  }),
  /** A farm's rotations (of a yeargroup, of one field of it: each narrows the one before). */
  rotationsOfFarm: (farmId: number, yeargroup?: number, fieldId?: number) => ({
    index: 'gsi1' as const,
    pk: `FARMROTATIONS#${farmId}`,
    ...(yeargroup === undefined
      ? {}
      : { skPrefix: `${String(yeargroup).padStart(4, '0')}#${fieldId === undefined ? '' : `${pad(fieldId)}#`}` }),
  }),
  /** The rotation of a uuid in one field; rotationRefs lists every field whose rotation carries the uuid. */
  rotationRef: (rotationUuid: string, fieldId: number): Key => ({
    pk: `ROTATIONREF#${rotationUuid.toLowerCase()}`,
    sk: `FIELD#${pad(fieldId)}`,
  }),
  rotationRefs: (rotationUuid: string) => ({ pk: `ROTATIONREF#${rotationUuid.toLowerCase()}`, skPrefix: 'FIELD#' }),

  // --- inputs, labours and work orders (spec 3) --------------------------------------------------
  /** A user's personal input (master inputs are in code): a uuid names an input within its owner's list. */
  userInput: (userId: number, uuid: string): Key => ({ pk: `USER#${userId}`, sk: `INPUT#${uuid.toLowerCase()}` }),
  userInputsPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'INPUT#' }),
  /** A labour lives in its field's partition, under its campaign (yeargroup); labourRefs find it by uuid. */
  labour: (fieldId: number, yeargroup: number, uuid: string): Key => ({
    pk: `FIELD#${fieldId}`,
    sk: `LABOUR#${yeargroup}#${uuid.toLowerCase()}`,
  }),
  laboursOfCampaign: (fieldId: number, yeargroup: number) => ({
    pk: `FIELD#${fieldId}`,
    skPrefix: `LABOUR#${yeargroup}#`,
  }),
  laboursOfField: (fieldId: number) => ({ pk: `FIELD#${fieldId}`, skPrefix: 'LABOUR#' }),
  /** gsi1 of a labour: a field's labours of a campaign in the list's order (date, creation, uuid). */
  labourByDateIndex: (fieldId: number, yeargroup: number, date: string, createdAt: string, uuid: string) => ({
    gsi1pk: `FIELDLABOURS#${fieldId}#${yeargroup}`,
    gsi1sk: `${date}#${createdAt}#${uuid.toLowerCase()}`,
  }),
  /** A field's labours of a campaign by date, those from `dateFrom` to `dateTo` (YYYY-MM-DD, both included) when given. */
  laboursByDate: (fieldId: number, yeargroup: number, dateFrom?: string, dateTo?: string) => ({
    index: 'gsi1' as const,
    pk: `FIELDLABOURS#${fieldId}#${yeargroup}`,
    ...datesBetween(dateFrom, dateTo),
  }),
  /**
   * gsi2 of a labour: a farm's labours of a campaign in the list's order, so that a page of the
   * farms a caller reads is a query per farm, not per field (its field last: one order for equal keys).
   */
  labourByFarmIndex: (
    farmId: number,
    yeargroup: number,
    date: string,
    createdAt: string,
    uuid: string,
    fieldId: number,
  ) => ({
    gsi2pk: `FARMLABOURS#${farmId}#${yeargroup}`,
    gsi2sk: `${date}#${createdAt}#${uuid.toLowerCase()}#${pad(fieldId)}`,
  }),
  /** A farm's labours of a campaign by date, those from `dateFrom` to `dateTo` (both included) when given. */
  laboursOfFarmByDate: (farmId: number, yeargroup: number, dateFrom?: string, dateTo?: string) => ({
    index: 'gsi2' as const,
    pk: `FARMLABOURS#${farmId}#${yeargroup}`,
    ...datesBetween(dateFrom, dateTo),
  }),
  /** A farm's labours of a campaign counted by status and type: the sum of the tallies of its fields' campaigns. */
  farmLabourTally: (farmId: number, yeargroup: number): Key => ({
    pk: `FARM#${farmId}`,
    sk: `LABOURTALLY#${yeargroup}`,
  }),
  /** The labour of a uuid in one field (a uuid names a labour within its field); labourRefs lists every field whose labour carries it. */
  labourRef: (uuid: string, fieldId: number): Key => ({
    pk: `LABOURREF#${uuid.toLowerCase()}`,
    sk: `FIELD#${pad(fieldId)}`,
  }),
  labourRefs: (uuid: string) => ({ pk: `LABOURREF#${uuid.toLowerCase()}`, skPrefix: 'FIELD#' }),
  /** A user's work order (a uuid names a work order within its creator's). */
  workOrder: (userId: number, uuid: string): Key => ({ pk: `USER#${userId}`, sk: `WORKORDER#${uuid.toLowerCase()}` }),
  workOrdersPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'WORKORDER#' }),
  /** Points a field's owner at a work order another user wrote for labours on its fields (it reads it). */
  workOrderPointer: (fieldOwnerId: number, creatorId: number, uuid: string): Key => ({
    pk: `USER#${fieldOwnerId}`,
    sk: `WORKORDERFOR#${pad(creatorId)}#${uuid.toLowerCase()}`,
  }),
  workOrderPointers: (fieldOwnerId: number) => ({ pk: `USER#${fieldOwnerId}`, skPrefix: 'WORKORDERFOR#' }),

  // --- livestock (spec 1): paddocks and herds live in their field's partition ------------------
  paddock: (fieldId: number, uuid: string): Key => ({ pk: `FIELD#${fieldId}`, sk: `PADDOCK#${uuid.toLowerCase()}` }),
  paddocksPrefix: (fieldId: number) => ({ pk: `FIELD#${fieldId}`, skPrefix: 'PADDOCK#' }),
  /** A sampling lives in its field's partition (deleted with it); its ref finds it by uuid. */
  sampling: (fieldId: number, uuid: string): Key => ({ pk: `FIELD#${fieldId}`, sk: `SAMPLING#${uuid.toLowerCase()}` }),
  samplingsOfField: (fieldId: number) => ({ pk: `FIELD#${fieldId}`, skPrefix: 'SAMPLING#' }),
  samplingRef: (uuid: string): Key => ({ pk: `SAMPLINGREF#${uuid.toLowerCase()}`, sk: 'REF' }),
  /** A farm's samplings by field (gsi1): the analyses of a farm in one query, whatever its fields. */
  samplingByFarmIndex: (farmId: number, fieldId: number, uuid: string) => ({
    gsi1pk: `FARMSAMPLINGS#${farmId}`,
    gsi1sk: `${pad(fieldId)}#${uuid.toLowerCase()}`,
  }),
  /** A farm's samplings (of one field of it). */
  samplingsOfFarm: (farmId: number, fieldId?: number) => ({
    index: 'gsi1' as const,
    pk: `FARMSAMPLINGS#${farmId}`,
    ...(fieldId === undefined ? {} : { skPrefix: `${pad(fieldId)}#` }),
  }),
  /** A user map lives in its field's partition (deleted with the field); the keys below point to it. */
  map: (fieldId: number, mapId: number): Key => ({ pk: `FIELD#${fieldId}`, sk: `MAP#${pad(mapId)}` }),
  mapsOfField: (fieldId: number) => ({ pk: `FIELD#${fieldId}`, skPrefix: 'MAP#' }),
  /** A map without its GeoJSON (what the lists answer), written with it: a list reads these, not the maps. */
  mapHead: (fieldId: number, mapId: number): Key => ({ pk: `FIELD#${fieldId}`, sk: `MAPHEAD#${pad(mapId)}` }),
  mapHeadsOfField: (fieldId: number) => ({ pk: `FIELD#${fieldId}`, skPrefix: 'MAPHEAD#' }),
  /** Where map `mapId` is: its field and owner. */
  mapRef: (mapId: number): Key => ({ pk: `MAP#${mapId}`, sk: 'REF' }),
  /** A user's maps, by id (`map_id`, `field_id`). */
  userMap: (userId: number, mapId: number): Key => ({ pk: `USER#${userId}`, sk: `MAP#${pad(mapId)}` }),
  userMapsPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'MAP#' }),
  /** Map names are unique per field, whoever created the maps (kept in the field's partition: deleted with it). */
  fieldMapName: (fieldId: number, name: string): Key => ({
    pk: `FIELD#${fieldId}`,
    sk: `MAPNAME#${normalizeName(name)}`,
  }),
  paddockName: (fieldId: number, name: string): Key => ({
    pk: `FIELD#${fieldId}`,
    sk: `PADDOCKNAME#${normalizeName(name)}`,
  }),
  /** The paddock of a uuid in one field; paddockRefs lists every field whose paddock carries the uuid. */
  paddockRef: (uuid: string, fieldId: number): Key => ({
    pk: `PADDOCKREF#${uuid.toLowerCase()}`,
    sk: `FIELD#${pad(fieldId)}`,
  }),
  paddockRefs: (uuid: string) => ({ pk: `PADDOCKREF#${uuid.toLowerCase()}`, skPrefix: 'FIELD#' }),
  herd: (fieldId: number, uuid: string): Key => ({ pk: `FIELD#${fieldId}`, sk: `HERD#${uuid.toLowerCase()}` }),
  herdsPrefix: (fieldId: number) => ({ pk: `FIELD#${fieldId}`, skPrefix: 'HERD#' }),
  /** The herd of a uuid in one field (moved with the herd); herdRefs lists every field whose herd carries the uuid. */
  herdRef: (uuid: string, fieldId: number): Key => ({
    pk: `HERDREF#${uuid.toLowerCase()}`,
    sk: `FIELD#${pad(fieldId)}`,
  }),
  herdRefs: (uuid: string) => ({ pk: `HERDREF#${uuid.toLowerCase()}`, skPrefix: 'FIELD#' }),
  /** A herd's history (by its numeric id, which never changes), by transaction date. */
  herdLog: (herdId: number, isoDate: string, transactionUuid: string): Key => ({
    pk: `HERDLOG#${herdId}`,
    sk: `TX#${isoDate}#${transactionUuid.toLowerCase()}`,
  }),
  herdLogPrefix: (herdId: number) => ({ pk: `HERDLOG#${herdId}`, skPrefix: 'TX#' }),
  // --- spots (spec 1): a spot lives in its field's partition; its messages under its id. Client
  // uuids name a record within its scope (a spot within its field, a text or image within its
  // spot, a tag or sample set within its owner): the `...Refs` partitions list every record that
  // carries one uuid, and a lookup keeps those the caller can reach (docs/decisions.md).
  spot: (fieldId: number, uuid: string): Key => ({ pk: `FIELD#${fieldId}`, sk: `SPOT#${uuid.toLowerCase()}` }),
  spotsPrefix: (fieldId: number) => ({ pk: `FIELD#${fieldId}`, skPrefix: 'SPOT#' }),
  /** gsi1 of a spot: a field's spots by creation time (YYYY-MM-DDTHH:MM:SS.mmmZ). */
  spotByTimeIndex: (fieldId: number, createdAt: string, uuid: string) => ({
    gsi1pk: `FIELDSPOTS#${fieldId}`,
    gsi1sk: `${createdAt}#${uuid.toLowerCase()}`,
  }),
  /** A field's spots created between two gsi1 sort keys (both included). */
  spotsByTime: (fieldId: number, from: string, to: string) => ({
    index: 'gsi1' as const,
    pk: `FIELDSPOTS#${fieldId}`,
    skBetween: [from, to] as const,
  }),
  /** gsi3 of a spot: a farm's spots by creation time (its field last: one order for equal keys). */
  spotByFarmIndex: (farmId: number, createdAt: string, uuid: string, fieldId: number) => ({
    gsi3pk: `FARMSPOTS#${farmId}`,
    gsi3sk: `${createdAt}#${uuid.toLowerCase()}#${pad(fieldId)}`,
  }),
  /** A farm's spots created between two gsi3 sort keys (both included). */
  spotsOfFarmByTime: (farmId: number, from: string, to: string) => ({
    index: 'gsi3' as const,
    pk: `FARMSPOTS#${farmId}`,
    skBetween: [from, to] as const,
  }),
  /** gsi2 of a spot: the spots of a group. */
  spotGroupIndex: (groupUuid: string, spotId: number) => ({
    gsi2pk: `SPOTGROUP#${groupUuid.toLowerCase()}`,
    gsi2sk: pad(spotId),
  }),
  spotGroupIndexPk: (groupUuid: string) => `SPOTGROUP#${groupUuid.toLowerCase()}`,
  /** The spot of a uuid in one field; spotRefs lists every field whose spot carries the uuid. */
  spotRef: (uuid: string, fieldId: number): Key => ({
    pk: `SPOTREF#${uuid.toLowerCase()}`,
    sk: `FIELD#${pad(fieldId)}`,
  }),
  spotRefs: (uuid: string) => ({ pk: `SPOTREF#${uuid.toLowerCase()}`, skPrefix: 'FIELD#' }),
  /** Where a spot (by its numeric id) is: its field and uuid. */
  spotById: (spotId: number): Key => ({ pk: `SPOTID#${spotId}`, sk: 'SPOT' }),
  spotCode: (code: string): Key => ({ pk: `SPOTCODE#${code}`, sk: 'CODE' }),
  spotMessage: (spotId: number, timestampUsr: string, messageUuid: string): Key => ({
    pk: `SPOTMSGS#${spotId}`,
    sk: `MSG#${timestampUsr}#${messageUuid.toLowerCase()}`,
  }),
  spotMessagesPrefix: (spotId: number) => ({ pk: `SPOTMSGS#${spotId}`, skPrefix: 'MSG#' }),
  /** A text of a spot by its uuid; messageRefs lists every spot with a text of that uuid. */
  messageRef: (messageUuid: string, spotId: number): Key => ({
    pk: `SPOTMSGREF#${messageUuid.toLowerCase()}`,
    sk: `SPOT#${pad(spotId)}`,
  }),
  messageRefs: (messageUuid: string) => ({ pk: `SPOTMSGREF#${messageUuid.toLowerCase()}`, skPrefix: 'SPOT#' }),
  /** An image declared in a text of a spot; spotImageRefs lists every spot declaring that uuid. */
  spotImage: (imageUuid: string, spotId: number): Key => ({
    pk: `SPOTIMG#${imageUuid.toLowerCase()}`,
    sk: `SPOT#${pad(spotId)}`,
  }),
  spotImageRefs: (imageUuid: string) => ({ pk: `SPOTIMG#${imageUuid.toLowerCase()}`, skPrefix: 'SPOT#' }),
  /** A user's spot tag (common tags are in code); gsi1 lists a user's tags. */
  spotTag: (ownerId: number, uuid: string): Key => ({
    pk: `SPOTTAG#${uuid.toLowerCase()}`,
    sk: `USER#${pad(ownerId)}`,
  }),
  spotTagsIndex: (userId: number, name: string, uuid: string) => ({
    gsi1pk: `SPOTTAGS#${userId}`,
    gsi1sk: `${normalizeName(name)}#${uuid.toLowerCase()}`,
  }),
  spotTagsIndexPk: (userId: number) => `SPOTTAGS#${userId}`,
  /** A sample set of an owner (the owner of the fields its spots are in). */
  sampleSet: (ownerId: number, uuid: string): Key => ({
    pk: `SAMPLESET#${uuid.toLowerCase()}`,
    sk: `USER#${pad(ownerId)}`,
  }),
  /** The id given to a sample_set_type text. */
  sampleSetType: (type: string): Key => ({ pk: 'SAMPLESETTYPE', sk: type }),

  // --- sensors (spec 1): groups per user and extension; their uuids and their variables' uuids
  // name records within that pair; variables and values hang from the group's numeric id ----------
  sensorGroup: (userId: number, extensionId: string, groupUuid: string): Key => ({
    pk: `SENSORUSER#${userId}`,
    sk: `GROUP#${encodeURIComponent(extensionId)}#${groupUuid.toLowerCase()}`,
  }),
  /** A user's groups: all of them, or those of one extension. */
  sensorGroupsPrefix: (userId: number, extensionId?: string) => ({
    pk: `SENSORUSER#${userId}`,
    skPrefix: extensionId === undefined ? 'GROUP#' : `GROUP#${encodeURIComponent(extensionId)}#`,
  }),
  sensorVariable: (groupId: number, variableUuid: string): Key => ({
    pk: `SENSORGROUPVARS#${groupId}`,
    sk: `VAR#${variableUuid.toLowerCase()}`,
  }),
  sensorVariablesPrefix: (groupId: number) => ({ pk: `SENSORGROUPVARS#${groupId}`, skPrefix: 'VAR#' }),
  /** The group of a user's variable uuid, per extension; sensorVariableRefs: every extension's. */
  sensorVariableRef: (userId: number, extensionId: string, variableUuid: string): Key => ({
    pk: `SENSORVAR#${userId}#${variableUuid.toLowerCase()}`,
    sk: `EXT#${encodeURIComponent(extensionId)}`,
  }),
  sensorVariableRefs: (userId: number, variableUuid: string) => ({
    pk: `SENSORVAR#${userId}#${variableUuid.toLowerCase()}`,
    skPrefix: 'EXT#',
  }),
  /** Values of a variable in one UTC day (part: a time slice of a dense day). */
  sensorChunk: (groupId: number, variableUuid: string, day: string, part: number): Key => ({
    pk: `SENSORVALUES#${groupId}#${variableUuid.toLowerCase()}`,
    sk: `CHUNK#${day}#${String(part).padStart(2, '0')}`,
  }),
  sensorChunksOfDay: (groupId: number, variableUuid: string, day: string) => ({
    pk: `SENSORVALUES#${groupId}#${variableUuid.toLowerCase()}`,
    skPrefix: `CHUNK#${day}#`,
  }),
  sensorChunksBetween: (groupId: number, variableUuid: string, fromDay: string, toDay: string) => ({
    pk: `SENSORVALUES#${groupId}#${variableUuid.toLowerCase()}`,
    skBetween: [`CHUNK#${fromDay}#`, `CHUNK#${toDay}#~`] as const,
  }),
  sensorBulkJob: (jobUuid: string): Key => ({ pk: `SENSORJOB#${jobUuid.toLowerCase()}`, sk: 'JOB' }),

  // --- extension storage (spec 3): kept in the resource's own partition, per extension ----------
  /** USER#u, FIELD#f or FARM#f: a field's and a farm's entries go with them. */
  storageResource: (scope: 'users' | 'fields' | 'farms', id: number): string =>
    `${{ users: 'USER', fields: 'FIELD', farms: 'FARM' }[scope]}#${id}`,
  storageValue: (resourcePk: string, extensionId: string, key: string): Key => ({
    pk: resourcePk,
    sk: `KV#${encodeURIComponent(extensionId)}#${key}`,
  }),
  storageFile: (resourcePk: string, extensionId: string, key: string): Key => ({
    pk: resourcePk,
    sk: `FILE#${encodeURIComponent(extensionId)}#${key}`,
  }),
  /**
   * gsi1 of a field's value or file record (`KV` or `FILE`): an extension's entries in the fields of
   * a farm, by key, then field (keys match ^\w+$: no `#` in them).
   */
  storageByFarmIndex: (farmId: number, kind: 'KV' | 'FILE', extensionId: string, key: string, fieldId: number) => ({
    gsi1pk: `FARMSTORAGE#${farmId}#${kind}#${encodeURIComponent(extensionId)}`,
    gsi1sk: `${key}#${pad(fieldId)}`,
  }),
  /** An extension's values or files in the fields of a farm (of one key). */
  storageOfFarm: (farmId: number, kind: 'KV' | 'FILE', extensionId: string, key?: string) => ({
    index: 'gsi1' as const,
    pk: `FARMSTORAGE#${farmId}#${kind}#${encodeURIComponent(extensionId)}`,
    ...(key === undefined ? {} : { skPrefix: `${key}#` }),
  }),
  // --- notifications (spec 3): one partition per user ------------------------------------------
  /** seq (last stream event) and pending (inbox items). */
  inboxState: (userId: number): Key => ({ pk: `INBOX#${userId}`, sk: 'STATE' }),
  /** An inbox item; item ids are UUIDv7, so the sort key orders items by creation time. */
  inboxItem: (userId: number, itemId: string): Key => ({ pk: `INBOX#${userId}`, sk: `ITEM#${itemId.toLowerCase()}` }),
  inboxItemsPrefix: (userId: number) => ({ pk: `INBOX#${userId}`, skPrefix: 'ITEM#' }),
  /** Marks a pinned item (pinned_until). */
  inboxPin: (userId: number, itemId: string): Key => ({ pk: `INBOX#${userId}`, sk: `PIN#${itemId.toLowerCase()}` }),
  inboxPinsPrefix: (userId: number) => ({ pk: `INBOX#${userId}`, skPrefix: 'PIN#' }),
  /** The undismissed item that stacks events of one name. */
  inboxStack: (userId: number, eventName: string): Key => ({ pk: `INBOX#${userId}`, sk: `STACK#${eventName}` }),
  /** The user's stream: one entry per delivered event, numbered without gaps (the SSE id). */
  inboxLog: (userId: number, seq: number): Key => ({
    pk: `INBOX#${userId}`,
    sk: `LOG#${String(seq).padStart(12, '0')}`,
  }),
  inboxLogAfter: (userId: number, seq: number) => ({
    pk: `INBOX#${userId}`,
    skBetween: [`LOG#${String(seq + 1).padStart(12, '0')}`, 'LOG#~'] as const,
  }),
  /** An event delivered to a user, once (idempotency of the worker per user). */
  inboxDelivery: (userId: number, eventId: string): Key => ({ pk: `INBOX#${userId}`, sk: `EVENT#${eventId}` }),

  // --- the change feed (docs/integrations.md "Change feed"): one partition per user ----------
  /**
   * A change in a user's feed; `seq` sorts by the time the feed worker wrote it (lib/changes/cursor.ts),
   * so the partition reads oldest first. Kept by TTL for the feed's retention.
   */
  change: (userId: number, seq: string): Key => ({ pk: `CHANGES#${userId}`, sk: `CHANGE#${seq}` }),
  /** The changes of a user's feed after `afterSeq` (excluded) up to `untilSeq` (included). */
  changesBetween: (userId: number, afterSeq: string, untilSeq: string) => ({
    pk: `CHANGES#${userId}`,
    // '#' sorts before every character of a seq: after `afterSeq` itself, every longer key is later
    skBetween: [`CHANGE#${afterSeq}~`, `CHANGE#${untilSeq}`] as const,
  }),
  /** The users a field's or farm's share names (reverse of their grants): the key's user id. */
  shareUserOf: (sk: string): number | undefined => (sk.startsWith('SHARE#') ? Number(sk.slice(6)) : undefined),

  /** The API key of an extension in a tier's usage plan (AWS; lib/auth/authorizer.ts). */
  extensionApiKey: (tier: string, extensionId: string): Key => ({
    pk: `APIKEY#${tier}`,
    sk: `EXT#${encodeURIComponent(extensionId)}`,
  }),
  /** One user's request rate through one extension (AWS; lib/platform/user-rate.ts): a partition per user. */
  userRate: (extensionId: string, userId: string): Key => ({
    pk: `USERRATE#${encodeURIComponent(extensionId)}#${userId}`,
    sk: 'RATE',
  }),
  /** A user by uid (the opaque id getfields shows). */
  userByUid: (uid: string): Key => ({ pk: `USERUID#${uid.toLowerCase()}`, sk: 'USER' }),

  /**
   * A livestock transaction, once: its uuid makes a repeated request harmless. Scoped to the
   * origin herd, which the caller must be able to change before the record is even looked up.
   */
  livestockTransaction: (originHerdId: number, uuid: string): Key => ({
    pk: `LIVESTOCKTX#${originHerdId}#${uuid.toLowerCase()}`,
    sk: 'TX',
  }),
};

export const parseIdFromSk = (sk: string): number => Number(sk.slice(sk.lastIndexOf('#') + 1));
