#!/usr/bin/env python3
"""
The site's typefaces for the PDFs the server draws (gift vouchers, invoices; decision 0164).

No PDF library embeds WOFF2, and pdf-lib draws one weight per font file: from the same variable fonts as
the site's subsets (subset-fonts.py, decision 0091), this writes static TrueType instances, cut to the same
French characters (every accent, Œ/œ, « », €, the no-break spaces), without hinting and without layout
tables (pdf-lib places glyphs one by one: no ligature, so a PDF's text reads back letter for letter), into
app/assets/fonts/pdf. pdf-lib embeds only the glyphs a document uses.

A PDF prints names its visitors type (a voucher's buyer and recipient, an invoice's client): beyond French,
every letter of Latin-1 and Latin Extended-A (Muñoz, Søren, Weiß, Łukasz, Ștefan, Gökçe…), the extended
letters taken from the same family's latin-ext file and merged in.

To regenerate (after an upgrade of the fontsource packages, or a change of FRENCH in subset-fonts.py), on
Debian/Ubuntu:

    apt-get install -y python3-fonttools python3-brotli
    /usr/bin/python3 scripts/fonts/subset-pdf-fonts.py

then run `npx vitest run --project unit app/server/vouchers` and commit app/assets/fonts/pdf.
"""

import importlib.util
import os
import sys
import tempfile

from fontTools import subset
from fontTools.merge import Merger
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(ROOT, "app", "assets", "fonts", "pdf")

# The web subsets' character set and sources: one definition of « what French needs ».
_spec = importlib.util.spec_from_file_location("subset_fonts", os.path.join(HERE, "subset-fonts.py"))
web = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(web)
SOURCES = {family["family"]: family["source"] for family in web.FAMILIES}

# The faces the voucher uses: Inter for the text and its bold, Playfair Display for the title and names.
INSTANCES = [
    ("Inter", 400, "Regular", "inter-regular.ttf"),
    ("Inter", 700, "Bold", "inter-bold.ttf"),
    ("Playfair Display", 400, "Regular", "playfair-display-regular.ttf"),
    ("Playfair Display", 700, "Bold", "playfair-display-bold.ttf"),
]


def name_instance(font, family, style):
    """Names that say which static face this is (the variable font's names say « Variable »)."""
    postscript = f"{family.replace(' ', '')}-{style}"
    for record in list(font["name"].names):
        if record.nameID in (1, 2, 3, 4, 6, 16, 17, 25):
            font["name"].removeNames(nameID=record.nameID)
    for name_id, value in ((1, family), (2, style), (3, postscript), (4, f"{family} {style}"), (6, postscript)):
        font["name"].setName(value, name_id, 3, 1, 0x409)


# Latin-1's letters and signs: the names of the clients of a French studio (with Extended-A below).
LATIN_1 = set(range(0xA0, 0x100))
# Latin Extended-A, and Romanian's Ș ș Ț ț (Latin Extended-B): all in the family's latin-ext file.
LATIN_EXTENDED_A = set(range(0x100, 0x180)) | set(range(0x218, 0x21C))
PDF_CHARACTERS = web.FRENCH | LATIN_1 | LATIN_EXTENDED_A


def instance(source, weight, unicodes, narrow_space=False):
    """One static weight of a variable font, cut to `unicodes`, as pdf-lib reads it."""
    font = TTFont(source)
    if narrow_space:
        web.add_narrow_no_break_space(font)
    font = instancer.instantiateVariableFont(font, {"wght": weight})
    options = subset.Options()
    options.layout_features = []
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "STAT"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.notdef_outline = True
    options.hinting = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes & set(font.getBestCmap())))
    subsetter.subset(font)
    font.flavor = None
    return font


def main():
    os.makedirs(OUT, exist_ok=True)
    for family, weight, style, out in INSTANCES:
        source = SOURCES[family]
        latin = instance(source, weight, PDF_CHARACTERS, narrow_space=True)
        # The latin file has a few of Extended-A (Œ, œ, ı); the latin-ext file the rest.
        rest = LATIN_EXTENDED_A - set(latin.getBestCmap())
        extended = instance(source.replace("-latin-", "-latin-ext-"), weight, rest)
        with tempfile.TemporaryDirectory() as folder:
            parts = [os.path.join(folder, "latin.ttf"), os.path.join(folder, "extended.ttf")]
            latin.save(parts[0])
            extended.save(parts[1])
            font = Merger().merge(parts)
        name_instance(font, family, style)
        font.recalcTimestamp = False
        path = os.path.join(OUT, out)
        font.save(path)
        kept = set(font.getBestCmap())
        missing = sorted(PDF_CHARACTERS - kept)
        print(
            f"{out}: {os.path.getsize(path)} bytes, {len(kept)} characters"
            + (f"; not in the font: {' '.join(f'U+{c:04X}' for c in missing)}" if missing else ""),
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
