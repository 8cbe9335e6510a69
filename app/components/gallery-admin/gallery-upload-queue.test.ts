import { describe, expect, it } from "vitest";
import {
  batchText,
  timeLeftText,
  percentOf,
  RefusedError,
  retryDelay,
  TransientError,
  UploadQueue,
  type ChunkAnswer,
  type Environment,
  type QueueFile,
  type QueueSnapshot,
  type Transport,
} from "./gallery-upload-queue";

function file(name: string, size: number): QueueFile {
  return {
    name,
    size,
    type: "image/jpeg",
    lastModified: 1,
    slice: (start, end) => new Blob([new Uint8Array(end - start)]),
  };
}

/**
 * A server in memory: `received` per upload, pieces checked against it (409 otherwise), and failures
 * scripted by `failures` (the n-th call to send throws a TransientError; its bytes may have arrived).
 */
function fakeServer(options: {
  chunkSize: number;
  failures?: Map<number, "before" | "after">;
  duplicates?: string[];
  refused?: Record<string, string>;
}) {
  const uploads = new Map<string, { size: number; received: number; photoId: string | null }>();
  const log: string[] = [];
  let sends = 0;
  let concurrent = 0;
  let maxConcurrent = 0;
  const transport: Transport = {
    async start(queued) {
      log.push(`start ${queued.name}`);
      if (options.duplicates?.includes(queued.name))
        return { kind: "duplicate", message: "Déjà dans la galerie" };
      const reason = options.refused?.[queued.name];
      if (reason) return { kind: "refused", message: reason };
      uploads.set(queued.name, { size: queued.size, received: 0, photoId: null });
      return { kind: "started", uploadId: queued.name, chunkSize: options.chunkSize, received: 0 };
    },
    async offset(uploadId) {
      log.push(`offset ${uploadId}`);
      const upload = uploads.get(uploadId);
      if (!upload) throw new Error("unknown");
      return { ...upload };
    },
    async send(uploadId, offset, piece, onProgress): Promise<ChunkAnswer> {
      sends += 1;
      const call = sends;
      concurrent += 1;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      try {
        // A piece takes a moment on the network: the files' pieces overlap.
        await new Promise((resolve) => setTimeout(resolve, 2));
        const upload = uploads.get(uploadId);
        if (!upload) throw new Error("unknown");
        log.push(`send ${uploadId}@${offset}`);
        const failure = options.failures?.get(call);
        if (failure === "before") throw new TransientError("network");
        if (offset !== upload.received) return { kind: "conflict", received: upload.received };
        onProgress(piece.size / 2);
        upload.received += piece.size;
        if (upload.received === upload.size) upload.photoId = `photo-${uploadId}`;
        if (failure === "after") throw new TransientError("answer lost");
        if (upload.photoId) return { kind: "completed", photoId: upload.photoId };
        return { kind: "received", received: upload.received };
      } finally {
        concurrent -= 1;
      }
    },
  };
  return { transport, log, uploads, maxConcurrent: () => maxConcurrent };
}

function run(transport: Transport, files: QueueFile[], environment?: Partial<Environment>) {
  const waits: number[] = [];
  const snapshots: QueueSnapshot[] = [];
  let online = true;
  const queue = new UploadQueue(
    transport,
    {
      wait: async (ms) => {
        waits.push(ms);
        online = true;
      },
      isOnline: () => online,
      now: () => Date.now(),
      ...environment,
    },
    { concurrency: 3, onChange: (snapshot) => snapshots.push(snapshot) },
  );
  const done = new Promise<QueueSnapshot>((resolve) => {
    const check = setInterval(() => {
      const last = snapshots.at(-1);
      if (last && !last.busy) {
        clearInterval(check);
        resolve(last);
      }
    }, 1);
  });
  queue.add(files);
  return { done, waits, snapshots, queue, goOffline: () => (online = false) };
}

describe("the gallery's upload queue", () => {
  it("sends files sorted by name, 3 at a time, in pieces, and counts the batch", async () => {
    const server = fakeServer({ chunkSize: 10 });
    const names = ["IMG_10.jpg", "IMG_2.jpg", "IMG_1.jpg", "IMG_3.jpg", "IMG_20.jpg"];
    const { done, snapshots } = run(
      server.transport,
      names.map((name, index) => file(name, 25 + index)),
    );
    const last = await done;
    expect(server.log.filter((line) => line.startsWith("start"))).toEqual([
      "start IMG_1.jpg",
      "start IMG_2.jpg",
      "start IMG_3.jpg",
      "start IMG_10.jpg",
      "start IMG_20.jpg",
    ]);
    expect(server.maxConcurrent()).toBe(3);
    expect(last.files.map((entry) => entry.status)).toEqual(Array(5).fill("done"));
    expect(last.files.every((entry) => entry.sent === entry.size)).toBe(true);
    expect(batchText(last)).toBe("5 photos envoyées sur 5 · 100 %");
    // Pieces of 10 bytes: a 25-byte file goes in 3.
    expect(server.log.filter((line) => line.startsWith("send IMG_1.jpg"))).toEqual([
      "send IMG_1.jpg@0",
      "send IMG_1.jpg@10",
      "send IMG_1.jpg@20",
    ]);
    // The batch's percentage only grows, and shows values between 0 and 100.
    const percents = snapshots.map((snapshot) => snapshot.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.some((percent) => percent > 0 && percent < 100)).toBe(true);
  });

  it("pauses on an error, waits longer each time, asks where it stands, and goes on", async () => {
    // The 2nd send fails before reaching the server, the 3rd after (its answer lost), the 4th before.
    const server = fakeServer({
      chunkSize: 10,
      failures: new Map([
        [2, "before"],
        [3, "after"],
        [4, "before"],
      ]),
    });
    const { done, waits, snapshots } = run(server.transport, [file("IMG_1.jpg", 30)]);
    const last = await done;
    expect(last.files[0]).toMatchObject({ status: "done", sent: 30 });
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(server.log).toEqual([
      "start IMG_1.jpg",
      "send IMG_1.jpg@0",
      "send IMG_1.jpg@10",
      "offset IMG_1.jpg",
      "send IMG_1.jpg@10",
      // The piece at 10 arrived although its answer was lost: the next one goes from 20.
      "offset IMG_1.jpg",
      "send IMG_1.jpg@20",
      "offset IMG_1.jpg",
      "send IMG_1.jpg@20",
    ]);
    expect(
      snapshots.some((snapshot) =>
        snapshot.files[0]?.message?.startsWith("Envoi interrompu : nouvel essai dans 1 s"),
      ),
    ).toBe(true);
  });

  it("completes a file whose last answer was lost, from the offset's answer", async () => {
    const server = fakeServer({ chunkSize: 10, failures: new Map([[2, "after"]]) });
    const { done } = run(server.transport, [file("IMG_1.jpg", 20)]);
    expect((await done).files[0]).toMatchObject({ status: "done", sent: 20 });
    expect(server.log.at(-1)).toBe("offset IMG_1.jpg");
  });

  it("counts a file already in the gallery as sent and a refused one apart", async () => {
    const server = fakeServer({
      chunkSize: 10,
      duplicates: ["IMG_2.jpg"],
      refused: { "IMG_3.pdf": "Format non pris en charge : JPEG, HEIC ou PNG." },
    });
    const { done } = run(server.transport, [
      file("IMG_1.jpg", 10),
      file("IMG_2.jpg", 10),
      file("IMG_3.pdf", 10),
    ]);
    const last = await done;
    expect(last.files.map(({ status, message }) => ({ status, message }))).toEqual([
      { status: "done", message: null },
      { status: "duplicate", message: "Déjà dans la galerie" },
      { status: "refused", message: "Format non pris en charge : JPEG, HEIC ou PNG." },
    ]);
    expect(batchText(last)).toBe("2 photos envoyées sur 2 · 66 %");
  });

  it("stops a file whose upload is gone on the server, with the server's reason", async () => {
    const server = fakeServer({ chunkSize: 10, failures: new Map([[1, "before"]]) });
    server.transport.offset = async () => {
      throw new RefusedError("Envoi introuvable : recommencez l'envoi de cette photo.");
    };
    const { done } = run(server.transport, [file("IMG_1.jpg", 20)]);
    expect((await done).files[0]).toMatchObject({
      status: "refused",
      message: "Envoi introuvable : recommencez l'envoi de cette photo.",
    });
  });

  it("waits for the connection when offline, then goes on", async () => {
    const server = fakeServer({ chunkSize: 10, failures: new Map([[1, "before"]]) });
    let online = false;
    const waits: number[] = [];
    const { done, snapshots } = run(server.transport, [file("IMG_1.jpg", 10)], {
      isOnline: () => online,
      wait: async (ms) => {
        waits.push(ms);
        if (waits.length === 3) online = true;
      },
    });
    expect((await done).files[0]?.status).toBe("done");
    expect(waits).toEqual([1000, 30_000, 30_000]);
    expect(
      snapshots.some(
        (snapshot) =>
          snapshot.files[0]?.message ===
          "Connexion perdue : l'envoi reprendra au retour de la connexion.",
      ),
    ).toBe(true);
  });
});

describe("a batch after an interruption", () => {
  it("starts the bar of a file the server already holds in part at the byte reached", () => {
    // A server that answers nothing yet: the first snapshot is what the page shows while it asks.
    const silent: Transport = {
      start: () => new Promise(() => {}),
      offset: () => new Promise(() => {}),
      send: () => new Promise(() => {}),
    };
    const snapshots: QueueSnapshot[] = [];
    const queue = new UploadQueue(
      silent,
      { wait: async () => {}, isOnline: () => true, now: () => 0 },
      { concurrency: 3, onChange: (snapshot) => snapshots.push(snapshot) },
    );
    queue.add([file("DSC_4100.jpg", 1000), file("DSC_4101.jpg", 1000)], (queued) =>
      queued.name === "DSC_4100.jpg" ? 400 : 0,
    );
    const [first] = snapshots;
    expect(first?.files.map(({ name, sent }) => [name, sent])).toEqual([
      ["DSC_4100.jpg", 400],
      ["DSC_4101.jpg", 0],
    ]);
    expect(first?.percent).toBe(20);
  });

  it("tells the time left from the pace of the last minute, once measured for 3 s", async () => {
    let clock = 0;
    const pieces: Array<(loaded: number) => void> = [];
    // The server holds 3,000 bytes of the file from an earlier page: they are not this page's pace.
    const transport: Transport = {
      start: async () => ({ kind: "started", uploadId: "u", chunkSize: 10_000, received: 3_000 }),
      offset: () => new Promise(() => {}),
      send: (_id, _offset, _piece, onProgress) => {
        pieces.push(onProgress);
        return new Promise(() => {});
      },
    };
    const snapshots: QueueSnapshot[] = [];
    const queue = new UploadQueue(
      transport,
      { wait: async () => {}, isOnline: () => true, now: () => clock },
      { concurrency: 1, onChange: (snapshot) => snapshots.push(snapshot) },
    );
    queue.add([file("IMG_0001.jpg", 10_000)], () => 3_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const progress = pieces[0];
    if (!progress) throw new Error("no piece sent");
    clock = 1_000;
    progress(1_000); // 1,000 bytes in 1 s: not measured long enough.
    expect(snapshots.at(-1)?.secondsLeft).toBeNull();
    clock = 5_000;
    progress(3_000); // 3,000 bytes in 5 s (0.6 byte/ms), 4,000 left: 6.7 s.
    expect(snapshots.at(-1)?.files[0]?.sent).toBe(6_000);
    expect(snapshots.at(-1)?.secondsLeft).toBe(7);
  });
});

describe("the queue's figures", () => {
  it("writes the time left in French, rounded up to the minute", () => {
    expect(timeLeftText(45)).toBe("Moins d'une minute restante");
    expect(timeLeftText(61)).toBe("Environ 2 min restantes");
    expect(timeLeftText(59 * 60)).toBe("Environ 59 min restantes");
    expect(timeLeftText(3600)).toBe("Environ 1 h restantes");
    expect(timeLeftText(2 * 3600 + 14 * 60 + 10)).toBe("Environ 2 h 15 min restantes");
    expect(timeLeftText(3 * 3600 + 5 * 60)).toBe("Environ 3 h 05 min restantes");
  });

  it("doubles the wait up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it("rounds percentages down and writes the batch in French", () => {
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(0, 0)).toBe(100);
    expect(batchText({ sentFiles: 12, totalFiles: 30, percent: 48 })).toBe(
      "12 photos envoyées sur 30 · 48 %",
    );
    expect(batchText({ sentFiles: 1, totalFiles: 30, percent: 3 })).toBe(
      "1 photo envoyée sur 30 · 3 %",
    );
  });
});
