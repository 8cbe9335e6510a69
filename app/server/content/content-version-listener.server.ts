import pg from "pg";
import { log } from "../logger.server";
import { withTimeout } from "../with-timeout.server";

/**
 * The content version known without a round trip (decision 0093): one connection of its own per process
 * (not from the pool, which would hand it to a query) listens on the channel that the version's trigger
 * notifies when a change commits (migration 0012). The version is trusted only while that connection is
 * proven alive: after it connected, listened, and a read that started after the LISTEN returned; and while
 * its heartbeat (a read of the version on the same connection) answers in time. Otherwise `current()` says
 * "unknown" and the page cache asks the database on each request, as before.
 *
 * Staleness: a change committed elsewhere is applied once its notification arrives (a few milliseconds;
 * `npm run bench -- --only ceiling` measures it). If the connection dies without a word (half-open TCP),
 * the heartbeat notices within `heartbeatMs + heartbeatTimeoutMs` at most, which bounds staleness then.
 */

const CONTENT_VERSION_CHANNEL = "content_version";
/** The listener's `application_name`, to recognise its connection in `pg_stat_activity`. */
export const LISTENER_APPLICATION_NAME = "studio content version listener";

export type ContentVersionListenerOptions = {
  databaseUrl: string;
  /** Reads the version (and whatever goes with it) with a read that starts after the call. */
  readVersion: () => Promise<number>;
  /** Time between two heartbeats. */
  heartbeatMs?: number;
  /** A heartbeat that takes longer than this means the connection is lost. */
  heartbeatTimeoutMs?: number;
  /** Wait before connecting again after a loss. */
  reconnectMs?: number;
};

export type ContentVersionListener = {
  /** The current content version, or undefined when it must be read from the database. */
  current(): number | undefined;
  /**
   * A request of this process may be changing content: the version is unknown until it ends (call the
   * returned function) and a version read after that end has come back.
   */
  holdForLocalWrite(): () => void;
  stop(): Promise<void>;
};

export function listenToContentVersion(
  options: ContentVersionListenerOptions,
): ContentVersionListener {
  const heartbeatMs = options.heartbeatMs ?? 1_000;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 1_000;
  const reconnectMs = options.reconnectMs ?? 1_000;

  let client: pg.Client | undefined;
  let connected = false;
  let healthyUntil = 0;
  let known: number | undefined;
  // Raised whenever the version may have changed: a read started before a raise cannot be trusted.
  let generation = 0;
  let reading = false;
  let localWrites = 0;
  let stopped = false;
  let beatTimer: NodeJS.Timeout | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let lastProblemLog = -Infinity;

  function problem(message: string, error: unknown) {
    // During an outage this repeats every second: once a minute in the log is enough.
    if (Date.now() - lastProblemLog < 60_000) return;
    lastProblemLog = Date.now();
    log.warn(message, { error });
  }

  function refresh() {
    if (reading || stopped || !connected) return;
    reading = true;
    const startedAt = generation;
    options.readVersion().then(
      (version) => {
        reading = false;
        if (generation === startedAt) known = version;
        else refresh();
      },
      (error: unknown) => {
        reading = false;
        problem("content_version_read_failed", error);
        // The page cache reads the version itself meanwhile; try again after a pause.
        setTimeout(refresh, reconnectMs).unref();
      },
    );
  }

  function invalidate() {
    generation += 1;
    known = undefined;
    refresh();
  }

  function drop(lost: pg.Client, error: unknown) {
    if (lost !== client) return;
    client = undefined;
    connected = false;
    invalidate();
    clearTimeout(beatTimer);
    lost.removeAllListeners("notification");
    // A half-open connection would never answer the goodbye: cut the socket too.
    lost.end().catch(() => undefined);
    (
      lost as unknown as { connection?: { stream?: { destroy?: () => void } } }
    ).connection?.stream?.destroy?.();
    reconnectLater(error);
  }

  function reconnectLater(error: unknown) {
    if (stopped) return;
    problem("content_version_listener_lost", error);
    reconnectTimer = setTimeout(connect, reconnectMs);
    reconnectTimer.unref();
  }

  function scheduleBeat(delay: number) {
    clearTimeout(beatTimer);
    beatTimer = setTimeout(beat, Math.max(0, delay));
    beatTimer.unref();
  }

  async function beat() {
    const beating = client;
    if (!beating || !connected) return;
    const sentAt = performance.now();
    try {
      const result = await withTimeout(
        beating.query<{ version: string }>(`select version::text as version from content_version`),
        heartbeatTimeoutMs,
        "heartbeat",
      );
      if (beating !== client) return;
      healthyUntil = sentAt + heartbeatMs + heartbeatTimeoutMs;
      // A notification on its way, or one lost: either way read again (what it names is committed).
      const version = Number(result.rows[0]?.version);
      if (known !== undefined && version > known) invalidate();
      scheduleBeat(heartbeatMs - (performance.now() - sentAt));
    } catch (error) {
      drop(beating, error);
    }
  }

  /** Connects (again); a throw before the connection exists (a bad setting) is logged and retried later. */
  function connect() {
    connectOnce().catch(reconnectLater);
  }

  async function connectOnce() {
    if (stopped) return;
    const connecting = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
    });
    client = connecting;
    connecting.on("error", (error) => drop(connecting, error));
    connecting.on("end", () => drop(connecting, new Error("connection ended")));
    connecting.on("notification", (message) => {
      if (message.channel !== CONTENT_VERSION_CHANNEL) return;
      const version = Number(message.payload);
      if (known === undefined || !(version <= known)) invalidate();
    });
    try {
      await withTimeout(connecting.connect(), heartbeatTimeoutMs, "connect");
      await withTimeout(
        connecting.query(`LISTEN ${CONTENT_VERSION_CHANNEL}`),
        heartbeatTimeoutMs,
        "LISTEN",
      );
      if (connecting !== client) return;
      // From here on no commit can pass unnoticed; the read that follows sees everything before.
      connected = true;
      healthyUntil = performance.now() + heartbeatMs + heartbeatTimeoutMs;
      invalidate();
      scheduleBeat(heartbeatMs);
      if (lastProblemLog !== -Infinity) log.info("content_version_listener_back");
    } catch (error) {
      drop(connecting, error);
    }
  }

  connect();

  return {
    current() {
      if (!connected || localWrites > 0 || known === undefined) return undefined;
      if (performance.now() > healthyUntil) return undefined;
      return known;
    },
    holdForLocalWrite() {
      localWrites += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        localWrites -= 1;
        invalidate();
      };
    },
    async stop() {
      stopped = true;
      clearTimeout(beatTimer);
      clearTimeout(reconnectTimer);
      const closing = client;
      client = undefined;
      connected = false;
      known = undefined;
      await closing?.end().catch(() => undefined);
    },
  };
}
