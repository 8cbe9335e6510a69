import sharp from "sharp";

/**
 * Real photos for the galleries' tests and the bench, made in a few milliseconds each: gradients and shapes
 * (no text, so no font), different for every `index`, with the metadata a camera writes — make, model, date
 * and a GPS position that the site must never deliver.
 */
export type TestPhotoOptions = {
  index: number;
  width?: number;
  height?: number;
  /** The Exif orientation tag (6: the camera was turned; the pixels are stored sideways). */
  orientation?: number;
  /** Adds the camera's GPS position (Ussel) to the Exif data. Default true. */
  gps?: boolean;
  quality?: number;
  /** Noise under the shapes: a heavier file, like a camera's (JPEG of several MB). */
  noise?: boolean;
};

export const TEST_GPS = { latitude: "45/1 32/1 54/1", longitude: "2/1 18/1 36/1" } as const;

function svgOf(index: number, width: number, height: number): Buffer {
  const hue = (index * 47) % 360;
  const shapes = Array.from({ length: 6 }, (_, shape) => {
    const seed = index * 31 + shape * 17;
    const x = (seed * 73) % width;
    const y = (seed * 151) % height;
    const radius = Math.round(Math.min(width, height) * (0.08 + ((seed * 7) % 20) / 100));
    return `<circle cx="${x}" cy="${y}" r="${radius}" fill="hsl(${(hue + shape * 60) % 360},70%,${40 + shape * 6}%)" fill-opacity="0.8"/>`;
  }).join("");
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="hsl(${hue},60%,75%)"/><stop offset="1" stop-color="hsl(${(hue + 140) % 360},55%,30%)"/>
      </linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>${shapes}
    </svg>`,
  );
}

const grains = new Map<string, Promise<Buffer>>();

/** Gaussian noise of one size, made once per test process (the slow part of a photo). */
function grainOf(width: number, height: number, sigma: number): Promise<Buffer> {
  const key = `${width}x${height}x${sigma}`;
  let grain = grains.get(key);
  if (!grain) {
    grain = sharp({
      create: {
        width,
        height,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma },
      },
    })
      .raw()
      .toBuffer();
    grains.set(key, grain);
  }
  return grain;
}

/** A JPEG as a camera would write it (see TestPhotoOptions). */
export async function makeTestJpeg(options: TestPhotoOptions): Promise<Buffer> {
  const {
    index,
    width = 1600,
    height = 1067,
    orientation,
    gps = true,
    quality = 85,
    noise = false,
  } = options;
  // Grain over the drawing, as a sensor has: strong noise makes a camera-sized file (several MB).
  const grain = await grainOf(width, height, noise ? 60 : 12);
  // The composite's pixels as they are (raw): the JPEG is encoded from them, with no PNG between.
  const { data, info } = await sharp(svgOf(index, width, height))
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: "overlay" }])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality })
    .withExif({
      IFD0: {
        Make: "Studio Test",
        Model: "Boîtier 1",
        DateTime: "2026:06:14 15:30:00",
      },
      IFD2: {
        DateTimeOriginal: "2026:06:14 15:29:58",
        ExposureTime: "1/160",
        FNumber: "28/10",
        ISOSpeedRatings: "400",
      },
      ...(gps
        ? {
            IFD3: {
              GPSLatitudeRef: "N",
              GPSLatitude: TEST_GPS.latitude,
              GPSLongitudeRef: "E",
              GPSLongitude: TEST_GPS.longitude,
            },
          }
        : {}),
    })
    .withMetadata(orientation ? { orientation } : {})
    .toBuffer();
}

/** A PNG of the same kind (PNG carries no GPS here, but text chunks the site drops). */
export async function makeTestPng(options: { index: number; width?: number; height?: number }) {
  const { index, width = 1200, height = 800 } = options;
  return sharp(svgOf(index, width, height))
    .png()
    .toBuffer();
}

/**
 * `count` photos named like a camera's (IMG_0001.jpg…): landscape, every fifth portrait, every seventh
 * stored sideways with orientation 6.
 */
export async function makeTestPhotoSet(count: number, options: { first?: number } = {}) {
  const first = options.first ?? 1;
  return Promise.all(
    Array.from({ length: count }, async (_, offset) => {
      const index = first + offset;
      const portrait = index % 5 === 0;
      const buffer = await makeTestJpeg({
        index,
        width: portrait ? 1067 : 1600,
        height: portrait ? 1600 : 1067,
        ...(index % 7 === 0 ? { orientation: 6 } : {}),
      });
      return { name: `IMG_${String(index).padStart(4, "0")}.jpg`, buffer };
    }),
  );
}

/** True when the file's Exif data holds a GPS position (the GPS IFD pointer, tag 0x8825). */
export async function hasGps(file: Buffer): Promise<boolean> {
  const { exif } = await sharp(file).metadata();
  if (!exif) return false;
  return exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
}
