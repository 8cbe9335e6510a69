import { build } from "./lib/build.ts";

build();
