// Photos imported with the `?photo` preset of vite-imagetools (vite.config.ts).
declare module "*?photo" {
  import type { Picture } from "imagetools-core";
  const picture: Picture;
  export default picture;
}
declare module "*?photo=hero" {
  import type { Picture } from "imagetools-core";
  const picture: Picture;
  export default picture;
}
