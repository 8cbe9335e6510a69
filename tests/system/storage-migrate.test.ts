import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { s3Storage } from "../../app/server/storage/s3.server";
import type { Storage } from "../../app/server/storage/types";
import { root } from "../../scripts/lib/build";
import { startS3Server, type S3Server } from "../support/s3-server";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// `npm run storage:migrate` (decision 0100): the files of a site on local disk go into an S3 bucket, a
// second run copies nothing, --delete-local empties the folder, and a site started on the bucket serves
// them (and still never a client gallery's file).

const run = promisify(execFile);

let s3: S3Server;
let bucket: Storage;
let dataDir: string;
let server: ServerProcess | undefined;

const files = {
  "blog-images/0123456789abcdef-1700000000000.jpg": randomBytes(40_000),
  "blog-images/0123456789abcdef-1700000000000-480.avif": randomBytes(3_000),
  "media/fedcba9876543210-1700000000000-400.webp": randomBytes(12_345),
  "galleries/2b1f3c4d-0000-4000-8000-000000000001/9e8d7c6b-0000-4000-8000-000000000002/original.jpg":
    randomBytes(70_000),
};

async function migrate(...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["scripts/storage-migrate.ts", ...args],
      {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir, ...s3.env, LOG_LEVEL: "warn" },
        timeout: 60_000,
      },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

beforeAll(async () => {
  s3 = await startS3Server();
  bucket = s3Storage({
    endpoint: s3.env.S3_ENDPOINT,
    bucket: s3.env.S3_BUCKET,
    region: s3.env.S3_REGION,
    accessKeyId: s3.env.S3_ACCESS_KEY_ID,
    secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
    temporaryDirectory: os.tmpdir(),
  });
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "storage-migrate-"));
  for (const [key, bytes] of Object.entries(files)) {
    const file = path.join(dataDir, "uploads", key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, bytes);
  }
  // A write in progress, and a file no key can name: neither is copied.
  await fs.writeFile(path.join(dataDir, "uploads/media/x-400.webp.tmp-123"), "half");
  await fs.writeFile(path.join(dataDir, "uploads/media/Photo Perso.JPG"), "hand-made");
});

afterAll(async () => {
  await server?.stop();
  await s3?.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

async function bucketKeys() {
  const keys: string[] = [];
  for await (const object of bucket.list("")) keys.push(object.key);
  return keys;
}

describe("npm run storage:migrate", () => {
  it("counts without copying on --dry-run", async () => {
    const { code, output } = await migrate("--dry-run");
    expect(output).toContain("4 à copier, 0 déjà présents, 0 erreurs");
    expect(code).toBe(0);
    expect(await bucketKeys()).toEqual([]);
  });

  it("copies every file byte for byte, and a second run copies none", async () => {
    const first = await migrate();
    expect(first.output).toContain("4 copiés, 0 déjà présents, 0 erreurs");
    expect(first.output).toContain("media/Photo Perso.JPG : nom de fichier");
    expect(first.code).toBe(0);
    expect(await bucketKeys()).toEqual(Object.keys(files).sort());
    for (const [key, bytes] of Object.entries(files)) {
      const object = await bucket.get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of object?.body ?? []) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(bytes), key).toBe(true);
    }
    expect((await bucket.head("media/fedcba9876543210-1700000000000-400.webp"))?.contentType).toBe(
      "image/webp",
    );

    const second = await migrate();
    expect(second.output).toContain("0 copiés, 4 déjà présents, 0 erreurs");
    expect(second.code).toBe(0);
  });

  it("removes the local copies with --delete-local, after checking the bucket", async () => {
    const { code, output } = await migrate("--delete-local");
    expect(output).toContain("0 copiés, 4 déjà présents, 0 erreurs");
    expect(output).toContain("4 fichiers locaux supprimés");
    expect(code).toBe(0);
    for (const key of Object.keys(files)) {
      expect(existsSync(path.join(dataDir, "uploads", key)), key).toBe(false);
    }
    // What it did not copy stays.
    expect(existsSync(path.join(dataDir, "uploads/media/Photo Perso.JPG"))).toBe(true);
  });

  it("refuses to run without S3 settings, or with a bucket that does not answer", async () => {
    const none = await run(process.execPath, ["scripts/storage-migrate.ts"], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir },
    }).catch((error: { code: number; stderr: string }) => error);
    expect("code" in none && none.code).toBe(1);
    expect("stderr" in none && none.stderr).toContain("Aucun stockage S3 configuré");

    const wrong = await run(process.execPath, ["scripts/storage-migrate.ts"], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, ...s3.env, S3_BUCKET: "absent-bucket" },
    }).catch((error: { code: number; stderr: string }) => error);
    expect("code" in wrong && wrong.code).toBe(1);
    expect("stderr" in wrong && wrong.stderr).toMatch(
      /Stockage S3 injoignable.*S3_BUCKET.*S3_ACCESS_KEY_ID/s,
    );
  });

  it("stops a site whose bucket does not answer, naming the variables", async () => {
    await expect(
      startServerProcess(inject("adminDatabaseUrl"), { ...s3.env, S3_BUCKET: "absent-bucket" }),
    ).rejects.toThrow(/Stockage S3 injoignable : le bucket « absent-bucket ».*S3_BUCKET/s);
  });

  it("leaves a site on the bucket serving the files without any local uploads folder", async () => {
    server = await startServerProcess(inject("adminDatabaseUrl"), {
      ...s3.env,
      SEED_DEMO: "0",
      LOG_LEVEL: "info",
    });
    expect(server.output()).toMatch(/"msg":"server_started".*"storage":"s3"/);
    for (const key of Object.keys(files).filter((key) => !key.startsWith("galleries/"))) {
      const response = await fetch(`${server.baseUrl}/uploads/${key}`);
      expect(response.status, key).toBe(200);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.equals(files[key as keyof typeof files]), key).toBe(true);
    }
    const ranged = await fetch(
      `${server.baseUrl}/uploads/blog-images/0123456789abcdef-1700000000000.jpg`,
      { headers: { Range: "bytes=10-19" } },
    );
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(
      files["blog-images/0123456789abcdef-1700000000000.jpg"].subarray(10, 20),
    );
    const [galleryKey] = Object.keys(files).filter((key) => key.startsWith("galleries/"));
    expect((await fetch(`${server.baseUrl}/uploads/${galleryKey}`)).status).toBe(404);
    expect(existsSync(path.join(server.dataDir, "uploads"))).toBe(false);
    expect(server.output()).not.toMatch(/storage_unreachable/);
  });
});
