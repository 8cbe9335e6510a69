import { describe, expect, it } from "vitest";
import { hasVariants, variantSrcSet } from "./image-variants";

describe("image variants", () => {
  it("lists the AVIF widths of an uploaded image", () => {
    expect(variantSrcSet("/uploads/blog-images/ab12-1700000000000.jpg", "avif")).toBe(
      "/uploads/blog-images/ab12-1700000000000-480.avif 480w, /uploads/blog-images/ab12-1700000000000-960.avif 960w, /uploads/blog-images/ab12-1700000000000-1600.avif 1600w",
    );
  });

  it("lists the variants of a demo cover, made like an upload's", () => {
    expect(variantSrcSet("/images/demo-blog/ete.jpg", "webp")).toBe(
      "/images/demo-blog/ete-480.webp 480w, /images/demo-blog/ete-960.webp 960w, /images/demo-blog/ete-1600.webp 1600w",
    );
  });

  it("has nothing for images that are not uploads", () => {
    expect(variantSrcSet("/images/photos/ete.jpg", "avif")).toBeNull();
    expect(hasVariants("/images/demo-blog/../secret.jpg")).toBe(false);
    expect(variantSrcSet("https://old-site.example/photo.jpg", "webp")).toBeNull();
    expect(hasVariants("/uploads/blog-images/../secret.jpg")).toBe(false);
    expect(variantSrcSet(null, "webp")).toBeNull();
  });
});
