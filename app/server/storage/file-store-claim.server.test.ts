import { describe, expect, it } from "vitest";
import { parseEnv } from "../env.server";
import { fileStoreOf } from "./file-store-claim.server";

const bucket = {
  S3_BUCKET: "studio-photos",
  S3_ACCESS_KEY_ID: "cle",
  S3_SECRET_ACCESS_KEY: "secret",
  S3_ENDPOINT: "https://s3.fr-par.scw.cloud",
};

describe("fileStoreOf", () => {
  it("gives servers on one bucket and prefix one store, whatever their data folder or key", () => {
    const first = fileStoreOf(parseEnv({ ...bucket, DATA_DIR: "/srv/un" }));
    const second = fileStoreOf(
      parseEnv({ ...bucket, DATA_DIR: "/srv/deux", S3_ACCESS_KEY_ID: "autre-cle" }),
    );
    expect(first).toEqual(second);
    expect(first.kind).toBe("s3");
    expect(first.label).toBe("le bucket S3 « studio-photos »");
  });

  it("tells another bucket, prefix or endpoint apart", () => {
    const store = fileStoreOf(parseEnv(bucket)).fingerprint;
    expect(fileStoreOf(parseEnv({ ...bucket, S3_PREFIX: "studio/" })).fingerprint).not.toBe(store);
    expect(fileStoreOf(parseEnv({ ...bucket, S3_BUCKET: "autre" })).fingerprint).not.toBe(store);
    expect(
      fileStoreOf(parseEnv({ ...bucket, S3_ENDPOINT: "https://s3.gra.io.cloud.ovh.net" }))
        .fingerprint,
    ).not.toBe(store);
  });

  it("makes the local disk one store per folder of this machine", () => {
    const here = fileStoreOf(parseEnv({ DATA_DIR: "/srv/studio/data" }));
    expect(here.kind).toBe("local");
    expect(fileStoreOf(parseEnv({ DATA_DIR: "/srv/studio/data/" }))).toEqual(here);
    expect(fileStoreOf(parseEnv({ DATA_DIR: "/srv/autre" })).fingerprint).not.toBe(
      here.fingerprint,
    );
    expect(here.label).toMatch(/^le disque local \(\/srv\/studio\/data\/uploads sur .+\)$/);
  });
});
