// What a zip file starts with (local file header "PK\x03\x04"): xlsx, KMZ and zipped shapefiles.
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export const isZip = (content: Buffer): boolean => content.subarray(0, 4).equals(ZIP_MAGIC);
