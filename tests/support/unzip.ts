import yauzl from "yauzl";

export type UnzippedEntry = {
  name: string;
  bytes: Buffer;
  /** The CRC-32 the archive declares for the entry (yauzl checks the bytes against it). */
  crc32: number;
  /** Whether the entry carries a ZIP64 extra field. */
  zip64: boolean;
  /** Whether its name is flagged as UTF-8. */
  utf8: boolean;
};

/**
 * Every entry of a ZIP archive with its bytes, read by yauzl (an independent reader, strict about offsets,
 * sizes and ZIP64: not our writer).
 */
export function unzip(archive: Buffer): Promise<UnzippedEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(archive, { lazyEntries: true, strictFileNames: true }, (error, zip) => {
      if (error) return reject(error);
      const entries: UnzippedEntry[] = [];
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.push({
              name: entry.fileName,
              bytes: Buffer.concat(chunks),
              crc32: entry.crc32,
              zip64: entry.extraFields.some((field) => field.id === 0x0001),
              utf8: (entry.generalPurposeBitFlag & 0x0800) !== 0,
            });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
