import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { s3Storage } from "../../app/server/storage/s3.server";
import { StorageUnavailableError } from "../../app/server/storage/types";
import { startS3Server, type S3Server } from "../support/s3-server";
import { startServerProcess, type ServerProcess } from "../support/server-process";

// A bucket that stops answering: every request to it is bounded in time, given up when
// the visitor leaves, answered 504 in French with one JSON log line, and the site serves again once the
// bucket is back.

let s3: S3Server;
let server: ServerProcess;

beforeAll(async () => {
  s3 = await startS3Server();
  server = await startServerProcess(inject("adminDatabaseUrl"), {
    ...s3.env,
    S3_TIMEOUT_SECONDS: "2",
    SEED_DEMO: "0",
  });
});

afterAll(async () => {
  s3?.thaw();
  await server?.stop();
  await s3?.stop();
});

describe("a frozen bucket", () => {
  it("makes each storage call fail within its time limit, as a StorageUnavailableError", async () => {
    const store = s3Storage({
      endpoint: s3.env.S3_ENDPOINT,
      bucket: s3.env.S3_BUCKET,
      region: s3.env.S3_REGION,
      accessKeyId: s3.env.S3_ACCESS_KEY_ID,
      secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: true,
      temporaryDirectory: path.join(os.tmpdir(), "s3-timeouts"),
      timeoutMs: 1_000,
    });
    await store.put("media/avant.txt", Buffer.from("bonjour"), { contentType: "text/plain" });
    s3.freeze();
    try {
      for (const call of [
        () => store.head("media/avant.txt"),
        () => store.get("media/avant.txt"),
        () => store.put("media/pendant.txt", Buffer.from("x"), { contentType: "text/plain" }),
        () => store.delete(["media/avant.txt"]),
      ]) {
        const error = await call().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(StorageUnavailableError);
        // Given up by its own time-out: a frozen bucket never answers.
        expect((error as StorageUnavailableError).timedOut).toBe(true);
      }
      // The visitor's leaving gives the request up at once.
      const left = new AbortController();
      const asked = store.head("media/avant.txt", { signal: left.signal });
      left.abort();
      await expect(asked).rejects.toThrow();
    } finally {
      s3.thaw();
    }
    expect((await store.head("media/avant.txt"))?.size).toBe(7);
  });

  it("answers a public file 504 in French, logs one JSON line, and serves again once it is back", async () => {
    const logged = server.output().length;
    s3.freeze();
    try {
      // A frozen bucket never answers: the 504 is the server's own time-out.
      const answer = await fetch(`${server.baseUrl}/uploads/media/absente-1-640.avif`, {
        headers: { Accept: "text/html" },
      });
      expect(answer.status).toBe(504);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      const page = await answer.text();
      expect(page).toContain('lang="fr"');
      expect(page).toContain("le stockage des fichiers ne répond pas");

      // A visitor who does not wait: the request is given up with nothing printed but JSON.
      const impatient = new AbortController();
      const leaving = fetch(`${server.baseUrl}/uploads/media/autre-1-640.avif`, {
        signal: impatient.signal,
      }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      impatient.abort();
      await leaving;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    } finally {
      s3.thaw();
    }
    const lines = server
      .output()
      .slice(logged)
      .split("\n")
      .filter((line) => line.trim() !== "");
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const unavailable = lines
      .map((line) => JSON.parse(line) as { msg?: string })
      .filter((entry) => entry.msg === "storage_unavailable");
    expect(unavailable).toHaveLength(1);
    expect((await fetch(`${server.baseUrl}/uploads/media/absente-1-640.avif`)).status).toBe(404);
  });
});
