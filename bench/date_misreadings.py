"""How the receipt date survives OCR's misreadings of it: each misreading injected into the SROIE tune half's
box transcripts, one at a time, and the receipt extracted through the configured classifier and extractor.

    .venv/bin/python bench/date_misreadings.py            # a table per kind of misreading
    .venv/bin/python bench/date_misreadings.py --verbose  # and every misreading not read back

For each of the 18 receipts of the tune half (the check half is never used), the line that prints the date
is changed in one place: a separator read as another character or as nothing, a digit read as a letter or
as another digit, a digit lost, or the date split into two words by a space. Each changed receipt counts as

  read     its issue_date is the true date;
  review   a wrong date or none, with a confidence below the review threshold: someone is asked to look;
  silent   a wrong date sure enough to be routed without review: an error no one sees.

Some misreadings cannot be read back by any rule ("25/12/2018" as "26/12/2018"); what matters there is that
the wrong date is not a silent one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from accuracy import (SROIE, SROIE_TUNE, box_rows, box_rows_document,  # noqa: E402
                      records_from_parsed, sroie_truth)
from quire.settings import Settings  # noqa: E402

#: the characters OCR reads for a date's: digits as the letters and digits they look like, separators as
#: strokes, points or nothing
_READ_FOR = {"0": "ODoQ", "1": "lI|i7", "2": "Z7", "3": "8", "4": "A", "5": "S6", "6": "bG5", "7": "1T",
             "8": "B3", "9": "g"}
_SEPARATOR_READ_AS = ("1", "l", "I", "7", "|", "", " ", ".", "-", "~", "'")
OUTCOMES = ("read", "review", "silent")


def misreadings(printed: str) -> Iterator[tuple[str, str]]:
    """(kind, the date as misread) for each single misreading of ``printed``."""
    for i, char in enumerate(printed):
        before, after = printed[:i], printed[i + 1:]
        if char in "/-.":
            for read in _SEPARATOR_READ_AS:
                if read != char:
                    yield f"separator read as {read!r}" if read else "separator lost", before + read + after
        elif char.isdigit():
            for read in _READ_FOR.get(char, ""):
                kind = "digit read as a letter" if read.isalpha() else "digit read as a digit"
                yield kind, before + read + after
            yield "digit lost", before + after
            if i:
                yield "split by a space", before + " " + char + after


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verbose", action="store_true", help="list each misreading not read back")
    args = parser.parse_args(argv)
    settings = Settings(template_dir=None)
    by_kind: dict[str, Counter[str]] = {}
    for stem in sorted(SROIE_TUNE):
        truth = sroie_truth(stem)["fields"]["issue_date"]
        printed = json.loads((SROIE / "key" / f"{stem}.json").read_text(encoding="utf-8"))["date"]
        rows = box_rows(SROIE / "box" / f"{stem}.csv")
        line = next(i for i, (_, _, text) in enumerate(rows) if printed in text)
        for kind, misread in misreadings(printed):
            changed = list(rows)
            xs, ys, text = rows[line]
            changed[line] = (xs, ys, text.replace(printed, misread, 1))
            record = records_from_parsed(box_rows_document(changed), settings)
            issue_date = record["documents"][0]["fields"].get("issue_date") or {}
            value, confidence = issue_date.get("value"), issue_date.get("confidence", 0.0)
            sure = confidence >= settings.review_confidence
            outcome = "read" if value == truth else "silent" if value is not None and sure else "review"
            by_kind.setdefault(kind, Counter())[outcome] += 1
            if args.verbose and outcome != "read":
                print(f"  {stem} {kind}: {changed[line][2]!r} -> {value} ({confidence:.2f}) {outcome}")
    print(f"{'misreading':28}" + "".join(f"{o:>9}" for o in OUTCOMES) + f"{'of':>6}")
    total: Counter[str] = Counter()
    for kind, counts in sorted(by_kind.items()):
        total.update(counts)
        print(f"{kind:28}" + "".join(f"{counts[o]:9}" for o in OUTCOMES) + f"{counts.total():6}")
    print(f"{'all':28}" + "".join(f"{total[o]:9}" for o in OUTCOMES) + f"{total.total():6}")
    print(f"\n[{total.total()} misreadings of the dates of {len(SROIE_TUNE)} receipts (SROIE tune half); "
          f"read back {100 * total['read'] / total.total():.1f} %, silent errors {total['silent']}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
