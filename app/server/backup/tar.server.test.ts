import { execFile } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTar, TarFormatError, TarWriter } from "./tar.server";

const entries: Array<[string, Buffer]> = [
  ["sauvegarde.json", Buffer.from("{}")],
  ["vide", Buffer.alloc(0)],
  ["exactement-un-bloc", Buffer.alloc(512, 9)],
  [`fichiers/${"dossier/".repeat(14)}photo d'été.jpg`, Buffer.from("octets de la photo")],
];

describe("the backup's tar", () => {
  let directory: string;
  let file: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), "tar-"));
    file = path.join(directory, "archive.tar");
    const out = createWriteStream(file);
    const tar = new TarWriter(out);
    for (const [name, body] of entries) await tar.add(name, body.length, Readable.from([body]));
    await tar.finish();
    out.end();
    await new Promise<void>((resolve) => out.on("close", () => resolve()));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it("reads back what it wrote, long and accented names included", async () => {
    const read: Array<[string, Buffer]> = [];
    for await (const entry of readTar(createReadStream(file))) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) chunks.push(chunk);
      read.push([entry.name, Buffer.concat(chunks)]);
    }
    expect(read).toEqual(entries);
  });

  it("skips what a reader leaves of an entry", async () => {
    const names: string[] = [];
    for await (const entry of readTar(createReadStream(file))) names.push(entry.name);
    expect(names).toEqual(entries.map(([name]) => name));
  });

  it("is a tar any operator can list", async () => {
    const { stdout } = await promisify(execFile)("tar", ["-tf", file]);
    expect(stdout.trim().split("\n")).toEqual(entries.map(([name]) => name));
  });

  it("refuses a damaged header and an archive cut short", async () => {
    const bytes = await readFile(file);
    const damaged = Buffer.from(bytes);
    damaged[3] = 0x41;
    const read = async (input: Buffer) => {
      for await (const entry of readTar(Readable.from([input]))) {
        for await (const _ of entry.body) void _;
      }
    };
    await expect(read(damaged)).rejects.toBeInstanceOf(TarFormatError);
    await expect(read(bytes.subarray(0, 700))).rejects.toThrow("archive incomplète");
  });

  it("writes pieces handed over in one reused buffer, each before the buffer is filled again", async () => {
    const photo = Buffer.alloc(2_500_000);
    for (let index = 0; index < photo.length; index++) photo[index] = (index * 7) % 251;
    const pieces = path.join(directory, "pieces.tar");
    const out = createWriteStream(pieces);
    const tar = new TarWriter(out);
    const buffer = Buffer.alloc(1 << 16);
    await tar.addPieces("fichiers/photo.jpg", photo.length, Date.now(), async (write) => {
      for (let position = 0; position < photo.length; position += buffer.length) {
        const length = photo.copy(buffer, 0, position, position + buffer.length);
        await write(buffer.subarray(0, length));
      }
    });
    await tar.finish();
    out.end();
    await new Promise<void>((resolve) => out.on("close", () => resolve()));
    const read: Array<[string, boolean]> = [];
    for await (const entry of readTar(createReadStream(pieces))) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) chunks.push(chunk);
      read.push([entry.name, Buffer.concat(chunks).equals(photo)]);
    }
    expect(read).toEqual([["fichiers/photo.jpg", true]]);
  });

  it("refuses a body shorter or longer than the size it announced", async () => {
    const tar = new TarWriter(new Writable({ write: (_chunk, _encoding, done) => done() }));
    await expect(tar.add("court", 10, Readable.from([Buffer.alloc(4)]))).rejects.toThrow(
      "4 octets lus au lieu de 10",
    );
  });
});
