import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import pg from "pg";

/** Statements sent to PostgreSQL while handling one request, and the time spent waiting for them. */
export type QueryStats = { count: number; milliseconds: number };

const storage = new AsyncLocalStorage<QueryStats>();

/** Runs `handler` with its own statement counter (the HTTP layer calls this once per request). */
export function withQueryStats<T>(handler: (stats: QueryStats) => T): T {
  const stats: QueryStats = { count: 0, milliseconds: 0 };
  return storage.run(stats, () => handler(stats));
}

let installed = false;

/**
 * Counts every statement of every pg client (pooled or not) against the current request, so the
 * `Server-Timing` header can say how many database round trips a page needed.
 */
export function installQueryStats(): void {
  if (installed) return;
  installed = true;
  // pg-pool hands a freed client to the next waiting caller from inside the request that freed it: bind
  // each waiting callback to its own caller, so that its statements count for the right request.
  const connect = pg.Pool.prototype.connect;
  pg.Pool.prototype.connect = function (this: pg.Pool, ...args: unknown[]) {
    const callback = args[0];
    if (typeof callback === "function") {
      args[0] = AsyncResource.bind(callback as (...params: unknown[]) => unknown);
    }
    return (connect as (...params: unknown[]) => unknown).apply(this, args);
  } as typeof connect;
  const original = pg.Client.prototype.query;
  // Wrapping the prototype keeps all of pg's overloads; only the promise form is timed.
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const stats = storage.getStore();
    if (!stats) return (original as (...params: unknown[]) => unknown).apply(this, args);
    stats.count += 1;
    const started = performance.now();
    const done = () => (stats.milliseconds += performance.now() - started);
    // The pool calls the callback form; drizzle and our code the promise form.
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (...callbackArgs: unknown[]) => {
        done();
        return (last as (...params: unknown[]) => unknown)(...callbackArgs);
      };
    }
    const result = (original as (...params: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) result.then(done, done);
    return result;
  } as typeof original;
}

/** Runs `task` outside any request: its statements (and timers it creates) are charged to none. */
export function outsideRequest<T>(task: () => T): T {
  return storage.exit(task);
}
