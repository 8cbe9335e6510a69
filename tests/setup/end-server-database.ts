/*
 * The http and browser files reach the server's database through `serverDatabase()`, a pool in the
 * worker's process. A file on the suite's shared server never ended it: its idle connections outlived the
 * file, up to the run's teardown, which drops that database `with (force)`; PostgreSQL then cut them and the
 * pool logged « database_pool_error ». Ended after each file (after the file's own `afterAll`, which may
 * still use it): the next file opens its own.
 */
import { afterAll } from "vitest";
import { closeServerDatabase } from "../support/server-under-test";

afterAll(closeServerDatabase);
