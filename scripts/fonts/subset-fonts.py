#!/usr/bin/env python3
"""
The site's two typefaces cut down to what French text needs (decision 0091).

Reads the variable fonts that npm installs (@fontsource-variable/inter and /playfair-display, their "latin"
files), keeps only the characters of FRENCH below that the font has, narrows the weight axis to the weights the
site uses (WEIGHTS), and writes into app/assets/fonts:

- one .woff2 per family (a variable font limited to that weight range: smaller than its static instances
  together, see the decision);
- fonts.css: their @font-face rules, whose unicode-range lists exactly the characters each file holds (any
  other character, such as a Latin-1 letter the owner types in the admin, falls back to the next font of the
  stack, never to a missing glyph), with font-display: optional (no swap once text is drawn: no layout
  shift, and text waits at most the browser's ~100 ms block period), and the metric-matched fallback faces
  (Arial / Times New Roman, or their metric twins Liberation Sans / Serif) scaled to the web fonts' widths and
  line metrics, so that a page drawn with the fallback (a slow first visit) is laid out like the real one.

The build reads only the committed outputs: no network, no dependency. To regenerate (after an upgrade of the
fontsource packages, or a change of FRENCH or WEIGHTS), on Debian/Ubuntu:

    apt-get install -y python3-fonttools python3-brotli fonts-liberation
    /usr/bin/python3 scripts/fonts/subset-fonts.py

(the system Python, which has fontTools; it formats fonts.css with the repository's prettier), then run `npx vitest run --project unit app/assets/fonts` (the test checks that every character the site's
texts use is in the subsets) and commit app/assets/fonts.
"""

import io
import os
import subprocess
import sys

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "app", "assets", "fonts")
FONTSOURCE = os.path.join(ROOT, "node_modules", "@fontsource-variable")
LIBERATION = "/usr/share/fonts/truetype/liberation"


def chars(text):
    return {ord(c) for c in text}


# What French text on this site needs. Basic Latin; the French letters (with Æ/æ, Œ/œ, Ÿ/ÿ);
# guillemets, typographic apostrophes and quotes, dashes, ellipsis, euro, degree (« n° »), middle dot,
# multiplication sign, copyright (footer), single guillemets (the admin's « Photos › Téléverser »), and the
# no-break spaces that French typography puts before « ; : ! ? » and inside numbers (U+00A0, U+202F).
FRENCH = (
    set(range(0x20, 0x7F))
    | chars("ÀÂÆÇÈÉÊËÎÏÔŒÙÛÜŸàâæçèéêëîïôœùûüÿ")
    | chars("«»‹›‘’“”–—…€°·×©")
    | {0x00A0, 0x202F}
)

# Weights the site uses, per family (Tailwind's font-normal 400, font-medium 500, font-semibold 600,
# font-bold 700 and <strong>; headings are Playfair at 400, 600 and 700). Checked by the e2e test
# tests/e2e/fonts.test.ts, which reads every page's computed weights.
FAMILIES = [
    {
        "family": "Inter",
        "source": os.path.join(FONTSOURCE, "inter", "files", "inter-latin-wght-normal.woff2"),
        "out": "inter-fr-wght.woff2",
        "weights": (400, 700),
        # tnum: the admin's figures (tabular-nums).
        "features": ["tnum"],
        "fallback": {
            "family": "Inter fallback",
            "local": ["Arial", "ArialMT", "Liberation Sans", "LiberationSans", "Helvetica"],
            "local_bold": ["Arial Bold", "Arial-BoldMT", "Liberation Sans Bold", "LiberationSans-Bold", "Helvetica Bold"],
            "metrics": os.path.join(LIBERATION, "LiberationSans-Regular.ttf"),
            "metrics_bold": os.path.join(LIBERATION, "LiberationSans-Bold.ttf"),
        },
    },
    {
        "family": "Playfair Display",
        "source": os.path.join(FONTSOURCE, "playfair-display", "files", "playfair-display-latin-wght-normal.woff2"),
        "out": "playfair-display-fr-wght.woff2",
        "weights": (400, 700),
        "features": [],
        "fallback": {
            "family": "Playfair Display fallback",
            "local": ["Times New Roman", "TimesNewRomanPSMT", "Liberation Serif", "LiberationSerif", "Times"],
            "local_bold": [
                "Times New Roman Bold",
                "TimesNewRomanPS-BoldMT",
                "Liberation Serif Bold",
                "LiberationSerif-Bold",
                "Times Bold",
            ],
            "metrics": os.path.join(LIBERATION, "LiberationSerif-Regular.ttf"),
            "metrics_bold": os.path.join(LIBERATION, "LiberationSerif-Bold.ttf"),
        },
    },
]

# Text whose width the fallback is scaled to match: the kind of French the site's pages hold.
SAMPLE = (
    "Studio photo en Corrèze : portraits, mariages, familles et professionnels. Nos séances se déroulent "
    "au studio d'Ussel, de Brive ou de Limoges, ou en extérieur. Réservez votre séance photo dès aujourd'hui "
    "et découvrez nos tarifs : à partir de 89 € la séance, tirages compris. Contactez-nous au 05 55 00 00 00."
)


def subset_font(font, codepoints, features):
    options = subset.Options()
    options.layout_features = list(options.layout_features) + features
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)


def add_narrow_no_break_space(font):
    """U+202F drawn with the font's thin space (U+2009) when the font lacks it, as French numbers use it."""
    for table in font["cmap"].tables:
        if table.isUnicode() and 0x202F not in table.cmap and 0x2009 in table.cmap:
            table.cmap[0x202F] = table.cmap[0x2009]


def unicode_range(codepoints):
    ranges, items = [], sorted(codepoints)
    start = previous = items[0]
    for cp in items[1:] + [None]:
        if cp is not None and cp == previous + 1:
            previous = cp
            continue
        ranges.append(f"U+{start:X}" if start == previous else f"U+{start:X}-{previous:X}")
        if cp is not None:
            start = previous = cp
    return ",".join(ranges)


def text_width(font, text, location=None):
    """Advance width of `text` in font units (default instance, or the instance at `location`)."""
    if location:
        font = instancer.instantiateVariableFont(font, location)
    cmap = font.getBestCmap()
    hmtx = font["hmtx"]
    return sum(hmtx[cmap[ord(c)]][0] for c in text if ord(c) in cmap)


def fallback_faces(web, settings, weights):
    """@font-face rules of the local fallback, regular and bold, each scaled to the web font at that weight."""
    upm = web["head"].unitsPerEm
    os2 = web["OS/2"]
    ascent, descent, gap = os2.sTypoAscender, -os2.sTypoDescender, os2.sTypoLineGap
    rules = []
    for weight, local, metrics in (
        (400, settings["local"], settings["metrics"]),
        (700, settings["local_bold"], settings["metrics_bold"]),
    ):
        fallback = TTFont(metrics)
        web_width = text_width(TTFont(io.BytesIO(serialise(web))), SAMPLE, {"wght": weight}) / upm
        fallback_width = text_width(fallback, SAMPLE) / fallback["head"].unitsPerEm
        size_adjust = web_width / fallback_width
        sources = ", ".join(f'local("{name}")' for name in local)
        rules.append(
            "@font-face {\n"
            f'  font-family: "{settings["family"]}";\n'
            f"  font-weight: {weight};\n"
            f"  src: {sources};\n"
            f"  size-adjust: {size_adjust * 100:.2f}%;\n"
            f"  ascent-override: {ascent / upm / size_adjust * 100:.2f}%;\n"
            f"  descent-override: {descent / upm / size_adjust * 100:.2f}%;\n"
            f"  line-gap-override: {gap / upm / size_adjust * 100:.2f}%;\n"
            "}\n"
        )
    return rules


def serialise(font):
    buffer = io.BytesIO()
    font.flavor = None
    font.save(buffer)
    return buffer.getvalue()


def main():
    os.makedirs(OUT, exist_ok=True)
    css = [
        "/* Generated by scripts/fonts/subset-fonts.py (decision 0091): do not edit, run the script. */\n",
    ]
    for spec in FAMILIES:
        font = TTFont(spec["source"])
        add_narrow_no_break_space(font)
        subset_font(font, FRENCH & set(font.getBestCmap()), spec["features"])
        low, high = spec["weights"]
        font = instancer.instantiateVariableFont(font, {"wght": (low, high)})
        variable = TTFont(io.BytesIO(serialise(font)))
        kept = set(variable.getBestCmap())
        font.flavor = "woff2"
        font.recalcTimestamp = False
        path = os.path.join(OUT, spec["out"])
        font.save(path)
        missing = sorted(FRENCH - kept)
        print(
            f"{spec['out']}: {os.path.getsize(path)} bytes, {len(kept)} characters, wght {low}-{high}"
            + (f"; not in the font (fallback): {' '.join(f'U+{c:04X}' for c in missing)}" if missing else ""),
            file=sys.stderr,
        )
        css.append(
            "@font-face {\n"
            f'  font-family: "{spec["family"]}";\n'
            "  font-style: normal;\n"
            f"  font-weight: {low} {high};\n"
            "  font-display: optional;\n"
            f'  src: url("./{spec["out"]}") format("woff2");\n'
            f"  unicode-range: {unicode_range(kept)};\n"
            "}\n"
        )
        css.extend(fallback_faces(variable, spec["fallback"], spec["weights"]))
    css_path = os.path.join(OUT, "fonts.css")
    with open(css_path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(css))
    # The repository's formatting (npx finds prettier in node_modules).
    subprocess.run(["npx", "prettier", "--write", css_path], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
