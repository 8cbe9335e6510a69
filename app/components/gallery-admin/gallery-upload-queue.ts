/**
 * The queue of a client gallery's uploads in the browser (decision 0101), without React or the network:
 * files sorted by name, a few at a time, each sent in pieces through a `Transport`; an error or the loss of
 * the connection pauses the file, which asks the server where it stands and goes on after a growing wait
 * (1, 2, 4 … 30 s) or as soon as the browser is back online. The uploader component renders its snapshots.
 */

/** What the queue needs of a file (a `File` has it all). */
export type QueueFile = {
  name: string;
  size: number;
  type: string;
  lastModified: number;
  slice(start: number, end: number): Blob;
};

export type StartAnswer =
  | { kind: "started"; uploadId: string; chunkSize: number; received: number }
  | { kind: "duplicate"; message: string }
  | { kind: "refused"; message: string };

export type ChunkAnswer =
  | { kind: "received"; received: number }
  | { kind: "completed"; photoId: string }
  | { kind: "conflict"; received: number }
  | { kind: "refused"; message: string };

/** A failure worth trying again (no connection, a server error, a time-out). */
export class TransientError extends Error {
  override name = "TransientError";
}

/** A refusal found while asking where an upload stands (the upload or its gallery is gone): final. */
export class RefusedError extends Error {
  override name = "RefusedError";
}

export type Transport = {
  start(file: QueueFile): Promise<StartAnswer>;
  /** Where the upload stands on the server (`photoId` once completed). */
  offset(uploadId: string): Promise<{ received: number; size: number; photoId: string | null }>;
  /** One piece; `onProgress` gets the bytes of it sent so far. */
  send(
    uploadId: string,
    offset: number,
    piece: Blob,
    onProgress: (loaded: number) => void,
  ): Promise<ChunkAnswer>;
};

export type Environment = {
  /** Waits `ms`, or less when `wake` resolves first (the browser came back online). */
  wait(ms: number, wake: Promise<void>): Promise<void>;
  isOnline(): boolean;
  /** Milliseconds of a monotonic clock (the time left is measured on it). */
  now(): number;
};

export type FileStatus = "waiting" | "sending" | "paused" | "done" | "duplicate" | "refused";

export type FileProgress = {
  id: number;
  name: string;
  size: number;
  /** Bytes the server has, plus those of the piece under way. */
  sent: number;
  status: FileStatus;
  /** Why it is paused or refused, in French. */
  message: string | null;
};

export type QueueSnapshot = {
  files: FileProgress[];
  /** Files in the gallery (sent, or already there). */
  sentFiles: number;
  totalFiles: number;
  /** Bytes sent over bytes to send, 0–100. */
  percent: number;
  /** Some file is still waiting, sending or paused. */
  busy: boolean;
  /** Seconds until the batch is sent at the pace of the last minute; null until it can be told. */
  secondsLeft: number | null;
};

/** The waits between tries: 1, 2, 4, 8, 16, then 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));
}

/** The percentage of a file (or the batch), rounded down so 100 means every byte arrived. */
export function percentOf(sent: number, size: number): number {
  if (size <= 0) return 100;
  return Math.min(100, Math.floor((sent / size) * 100));
}

/** « Environ 2 h 15 min restantes » (rounded up to the minute). */
export function timeLeftText(seconds: number): string {
  if (seconds <= 60) return "Moins d'une minute restante";
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `Environ ${minutes} min restantes`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0
    ? `Environ ${hours} h restantes`
    : `Environ ${hours} h ${String(rest).padStart(2, "0")} min restantes`;
}

/** How far back the pace is measured, and how long it must have been measured to be told. */
const PACE_WINDOW_MS = 60_000;
const PACE_MINIMUM_MS = 3_000;

/** « 12 photos envoyées sur 30 · 48 % » */
export function batchText(snapshot: Pick<QueueSnapshot, "sentFiles" | "totalFiles" | "percent">) {
  const { sentFiles, totalFiles, percent } = snapshot;
  const noun = sentFiles > 1 ? "photos envoyées" : "photo envoyée";
  return `${sentFiles} ${noun} sur ${totalFiles} · ${percent} %`;
}

const collator = new Intl.Collator("fr", { numeric: true, sensitivity: "base" });

/** `resumedFrom`: the bytes the server had before this page sent any (not counted in the pace). */
type Entry = FileProgress & { file: QueueFile; resumedFrom: number };

export class UploadQueue {
  private entries: Entry[] = [];
  private running = 0;
  private starting: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private wakeUp: () => void = () => {};
  private wake: Promise<void>;
  /** Bytes this page sent, over time, for the pace (the last PACE_WINDOW_MS). */
  private pace: Array<{ at: number; moved: number }> = [];

  private readonly transport: Transport;
  private readonly environment: Environment;
  private readonly options: { concurrency: number; onChange: (snapshot: QueueSnapshot) => void };

  constructor(
    transport: Transport,
    environment: Environment,
    options: { concurrency: number; onChange: (snapshot: QueueSnapshot) => void },
  ) {
    this.transport = transport;
    this.environment = environment;
    this.options = options;
    this.wake = this.newWake();
  }

  private newWake(): Promise<void> {
    return new Promise((resolve) => {
      this.wakeUp = resolve;
    });
  }

  /** The browser is back online: paused files try again now. */
  online(): void {
    const wakeUp = this.wakeUp;
    this.wake = this.newWake();
    wakeUp();
  }

  /**
   * Adds files (sorted by name among themselves) at the end of the queue and starts sending. `resumeFrom`
   * gives the bytes the server already holds of a file whose upload was interrupted (a reload, another
   * day): its bar starts there, as its upload will.
   */
  add(files: QueueFile[], resumeFrom: (file: QueueFile) => number = () => 0): void {
    const sorted = [...files].sort((a, b) => collator.compare(a.name, b.name));
    for (const file of sorted) {
      const resumed = Math.min(file.size, Math.max(0, resumeFrom(file)));
      this.entries.push({
        id: this.nextId++,
        name: file.name,
        size: file.size,
        sent: resumed,
        resumedFrom: resumed,
        status: "waiting",
        message: null,
        file,
      });
    }
    this.changed();
    this.pump();
  }

  snapshot(): QueueSnapshot {
    const files = this.entries.map(
      ({ file: _file, resumedFrom: _resumed, ...progress }) => progress,
    );
    const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
    const sentBytes = files.reduce(
      (sum, file) => sum + (file.status === "duplicate" ? file.size : file.sent),
      0,
    );
    const busy = files.some(
      (file) => file.status === "waiting" || file.status === "sending" || file.status === "paused",
    );
    return {
      files,
      sentFiles: files.filter((file) => file.status === "done" || file.status === "duplicate")
        .length,
      totalFiles: files.filter((file) => file.status !== "refused").length,
      percent: percentOf(sentBytes, totalBytes),
      busy,
      secondsLeft: busy ? this.secondsLeft() : null,
    };
  }

  /** The bytes still to send over the pace of the last minute; null before it was measured long enough. */
  private secondsLeft(): number | null {
    const first = this.pace[0];
    const last = this.pace.at(-1);
    if (!first || !last || last.at - first.at < PACE_MINIMUM_MS || last.moved <= first.moved)
      return null;
    const bytesPerMs = (last.moved - first.moved) / (last.at - first.at);
    const remaining = this.entries
      .filter(
        (entry) =>
          entry.status === "waiting" || entry.status === "sending" || entry.status === "paused",
      )
      .reduce((sum, entry) => sum + entry.size - entry.sent, 0);
    return Math.ceil(remaining / bytesPerMs / 1000);
  }

  /** Notes the bytes sent so far (duplicates and resumed bytes aside) for the pace. */
  private measure(): void {
    const at = this.environment.now();
    const moved = this.entries.reduce(
      (sum, entry) =>
        entry.status === "duplicate" || entry.status === "refused"
          ? sum
          : sum + Math.max(0, entry.sent - entry.resumedFrom),
      0,
    );
    this.pace.push({ at, moved });
    // The oldest point kept is the last one older than the window, so the window is always covered.
    while (this.pace.length > 2 && (this.pace[1]?.at ?? at) <= at - PACE_WINDOW_MS)
      this.pace.shift();
  }

  private changed(): void {
    this.measure();
    this.options.onChange(this.snapshot());
  }

  private update(entry: Entry, changes: Partial<FileProgress>): void {
    Object.assign(entry, changes);
    this.changed();
  }

  private pump(): void {
    while (this.running < this.options.concurrency) {
      const next = this.entries.find((entry) => entry.status === "waiting");
      if (!next) return;
      this.running += 1;
      this.update(next, { status: "sending" });
      void this.upload(next).finally(() => {
        this.running -= 1;
        this.pump();
      });
    }
  }

  /**
   * Starts one upload after the previous start answered: the server places photos in the order their
   * uploads started, so a batch lands in name order even though 3 files go at a time.
   */
  private startInTurn(file: QueueFile) {
    const started = this.starting.then(() => this.transport.start(file));
    this.starting = started.catch(() => undefined);
    return started;
  }

  /** Sends one file to the end, pausing and trying again as long as the failures are transient. */
  private async upload(entry: Entry): Promise<void> {
    let uploadId: string | null = null;
    let chunkSize = 0;
    let received = 0;
    let attempt = 0;
    for (;;) {
      try {
        if (uploadId === null) {
          const started = await this.startInTurn(entry.file);
          if (started.kind === "duplicate") {
            return this.update(entry, { status: "duplicate", message: started.message });
          }
          if (started.kind === "refused") {
            return this.update(entry, { status: "refused", message: started.message, sent: 0 });
          }
          ({ uploadId, chunkSize, received } = started);
        } else if (attempt > 0) {
          // After a failure the last piece may have arrived with its answer lost: ask first.
          const where = await this.transport.offset(uploadId);
          if (where.photoId) return this.update(entry, { status: "done", sent: entry.size });
          received = where.received;
        }
        this.update(entry, { status: "sending", message: null, sent: received });
        const offset = received;
        const piece = entry.file.slice(offset, Math.min(offset + chunkSize, entry.size));
        const answer = await this.transport.send(uploadId, offset, piece, (loaded) => {
          if (entry.status === "sending") this.update(entry, { sent: offset + loaded });
        });
        if (answer.kind === "completed") {
          return this.update(entry, { status: "done", sent: entry.size, message: null });
        }
        if (answer.kind === "refused") {
          return this.update(entry, { status: "refused", message: answer.message, sent: 0 });
        }
        received = answer.received;
        attempt = 0;
        this.update(entry, { sent: received });
      } catch (error) {
        if (!(error instanceof TransientError)) {
          return this.update(entry, {
            status: "refused",
            message:
              error instanceof RefusedError ? error.message : "Erreur inattendue pendant l'envoi.",
          });
        }
        const delay = retryDelay(attempt);
        attempt += 1;
        const reason = this.environment.isOnline()
          ? `Envoi interrompu : nouvel essai dans ${Math.round(delay / 1000)} s.`
          : "Connexion perdue : l'envoi reprendra au retour de la connexion.";
        this.update(entry, { status: "paused", message: reason });
        await this.environment.wait(delay, this.wake);
        // Offline: wait for the connection (the `online` event wakes every paused file).
        while (!this.environment.isOnline()) await this.environment.wait(30_000, this.wake);
      }
    }
  }
}
