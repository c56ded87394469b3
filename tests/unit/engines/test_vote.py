"""The receipt vote: a word group more witnesses read alike, and otherwise, than read it as the first reading
replaces the first reading's."""

from __future__ import annotations

from PIL import Image

from quire.engines.ocr import OcrResult
from quire.engines.vote import TIE_BREAK_HEIGHTS, ReceiptVoteEngine, vote_readings
from quire.errors import EngineError
from quire.model import Word


class FixedReading:
    """Reads every image as ``result``; ``calls`` counts the readings."""

    name, version, settings_key = "fixed", "1", "fixed"

    def __init__(self, result: OcrResult) -> None:
        self.result = result
        self.calls = 0

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        self.calls += 1
        return self.result


def _reading(*texts: str, rotation: int = 0) -> OcrResult:
    """One line of words, each 60 points wide and 10 points apart."""
    words = tuple(Word(text, 70 * i, 0, 70 * i + 60, 12, 0.9) for i, text in enumerate(texts) if text)
    return OcrResult(" ".join(w.text for w in words), words, 0.9, rotation)


def test_a_word_two_witnesses_read_alike_replaces_the_first_reading() -> None:
    # the third witness read nothing on "SON" and reads "BHO" as the first reading does: a tie there
    witnesses = [_reading("SDN", "BHD", "9.60"), _reading("SDN", "BHD", "9.00"), _reading("", "BHO", "")]
    voted = vote_readings(_reading("SON", "BHO", "9.00"), witnesses)
    assert voted.text == "SDN BHO 9.00"
    assert [w.text for w in voted.words] == ["SDN", "BHO", "9.00"]
    two_against_none = [_reading("SDN", "BHD"), _reading("SDN", "BHD")]
    assert vote_readings(_reading("SON", "BHO"), two_against_none).text == "SDN BHD"


def test_a_word_needs_more_witnesses_against_the_first_reading_than_with_it() -> None:
    first = _reading("SON", "BHO", "9.00")
    # one witness alone, or two against the first reading and one with it, change nothing
    assert vote_readings(first, [_reading("SDN", "BHD", "9.60"), _reading("SEN", "BHD", "6.00")]).text \
        == "SON BHD 9.00"
    assert vote_readings(first, [_reading("SDN"), _reading("SDN"), _reading("SON")]) is first
    # three against one
    assert vote_readings(first, [_reading("SDN"), _reading("SDN"), _reading("SDN")]).text == "SDN BHO 9.00"
    agreeing = _reading("SON", "BHO", "9.00")
    assert vote_readings(agreeing, [agreeing, _reading("SDN", "BHD", "9.00")]) is agreeing


def test_a_vote_keeps_the_separators_the_first_reading_prints_between_digits() -> None:
    # two witnesses read with the same network lose the same decimal comma (generated dev 149: "4,5" as "45")
    first = _reading("4,5", "x", "28,11")
    assert vote_readings(first, [_reading("45", "x", "28,11"), _reading("45", "x", "28,11")]) is first
    assert vote_readings(first, [_reading("4.5"), _reading("4.5")]) is first
    # digits may be outvoted, and a number whose separator the first reading lost gets one
    assert vote_readings(first, [_reading("4,6"), _reading("4,6")]).text == "4,6 x 28,11"
    total = [_reading("TOTAL", "28.90"), _reading("TOTAL", "28.90")]
    assert vote_readings(_reading("TOTAL", "2e.?70"), total).text == "TOTAL 28.90"


class TieReadings:
    """Reads each tied group as the next of ``texts`` (a text per reading), and records what it was asked."""

    def __init__(self, *texts: str) -> None:
        self.texts = texts
        self.asked: list[set[int]] = []

    def __call__(self, groups: list, tied: set[int]) -> dict[int, list[list[Word]]]:
        self.asked.append(set(tied))
        return {number: [[Word(text, 0, 0, 60, 12, 0.9)] if text else [] for text in self.texts]
                for number in tied}


def test_a_tie_over_a_date_is_broken_by_the_readings_of_its_cut_out() -> None:
    # SROIE 472 blurred: the small network reads "13/04/2017" (the page and the Malay witness), the
    # full-size network "18/04/2017" (alone and with the Malay model); its cut-outs, enlarged, read 18
    first = _reading("Date:", "13/04/2017")
    witnesses = [_reading("Date:", "18/04/2017"), _reading("Date:", "13/04/2017"), _reading("Date:", "18/04/2017")]
    confirm = TieReadings('"18/04/2017', "18/04/2017", "19/04/2017", "")
    assert vote_readings(first, witnesses, confirm).text == "Date: 18/04/2017"
    assert confirm.asked == [{1}]
    # as many print the first reading's numbers: it stays; so it does without readings to break the tie
    assert vote_readings(first, witnesses, TieReadings("18/04/2017", "13/04/2017")) is first
    assert vote_readings(first, witnesses, TieReadings("19/04/2017", "")) is first
    assert vote_readings(first, witnesses) is first


def test_a_reading_that_prints_a_date_where_the_first_prints_an_impossible_one_wins_a_tie() -> None:
    # SROIE 037 faded a little: the small network reads "19/03/2078" (no such year on a receipt), the
    # full-size network "10/03/2018"; its cut-outs, enlarged, break the tie for the first reading
    first = _reading("Date:", "19/03/2078", "5:41:06")
    witnesses = [_reading("Date:", "10/03/2018", "5:41:06"), _reading("Date:", "19/03/2078", "5:41:06"),
                 _reading("Date:", "10/03/2018", "5:41:06")]
    against = TieReadings("19/03/2078", "19/03/2078")
    assert vote_readings(first, witnesses, against).text == "Date: 10/03/2018 5:41:06"
    assert against.asked == []  # no further reading is needed
    # SROIE 472 at JPEG quality 15: a month of 64
    first = _reading("Date:", "13/64/2017.")
    witnesses = [_reading("Date:", "18/04/2017"), _reading("Date:", "13/64/2017."), _reading("Date:", "18/04/2017")]
    assert vote_readings(first, witnesses, against).text == "Date: 18/04/2017"
    # a reading of a date that exists keeps the tie-break: another existing date is no repair
    possible = _reading("Date:", "13/04/2017")
    witnesses[1] = possible
    assert vote_readings(possible, witnesses, TieReadings("13/04/2017", "13/04/2017")) is possible


def test_witnesses_that_read_a_date_where_the_first_reading_found_none_may_print_more_separators() -> None:
    # SROIE 448 at JPEG quality 15: all three witnesses read the till's timestamp "27-04-18 16:26", the
    # first reading "1 04-18 16:26", its separator between 04 and 18 one of the witnesses' two
    first = _reading("1", "04-18", "16:26")
    witnesses = [_reading("", "27-04-18", "16:26")] * 3
    assert vote_readings(first, witnesses).text == "1 27-04-18 16:26"
    # without a date gained, the separators stay the first reading's
    amounts = _reading("", "27-04.18", "16:26")
    assert vote_readings(first, [amounts] * 3) is first

def test_only_a_tie_over_the_numbers_of_an_amount_date_or_time_is_read_again() -> None:
    confirm = TieReadings("SDN", "SDN", "7", "7")
    tied_words = [_reading("SDN"), _reading("SON"), _reading("SDN")]
    assert vote_readings(_reading("SON"), tied_words, confirm).text == "SON"
    tied_number = [_reading("7"), _reading("1"), _reading("7")]  # a quantity: no field is read from it
    assert vote_readings(_reading("1"), tied_number, confirm).text == "1"
    assert confirm.asked == []
    # an amount is, and a time; a tie between the same numbers otherwise spaced or spelled is no dispute
    amounts = [_reading("9.00"), _reading("9.60"), _reading("9.00")]
    assert vote_readings(_reading("9.60"), amounts, TieReadings("9.00", "9.00")).text == "9.00"
    times = [_reading("20:18:00"), _reading("20:19:00"), _reading("20:18:00")]
    assert vote_readings(_reading("20:19:00"), times, TieReadings("20:18:00", "20:18:00")).text == "20:18:00"
    spelled = [_reading("RM9.00"), _reading("M9.00"), _reading("RM9.00")]
    confirm = TieReadings("RM9.00", "RM9.00")
    assert vote_readings(_reading("M9.00"), spelled, confirm).text == "M9.00" and confirm.asked == []


def test_the_witnesses_must_read_the_same_ink_the_same_way() -> None:
    # a witness that split the word in two reads other ink groups: the spelling, spaces aside, must agree
    first = _reading("SON")
    split = OcrResult("S DN", (Word("S", 0, 0, 15, 12, 0.9), Word("DN", 20, 0, 60, 12, 0.9)), 0.9)
    assert vote_readings(first, [split, _reading("SDN")]).text == "S DN"
    assert vote_readings(first, [split, _reading("SEN")]) is first
    # the second witness read nothing there
    assert vote_readings(first, [_reading(""), _reading("SDN")]) is first


def test_readings_of_differently_turned_pages_are_not_compared() -> None:
    first = _reading("SON")
    assert vote_readings(first, [_reading("SDN", rotation=180), _reading("SDN", rotation=180)]) is first


def test_only_receipt_shaped_pages_are_read_by_the_witnesses() -> None:
    # a full-width page (an invoice) keeps its reading and costs the witnesses nothing
    first = FixedReading(_reading("SON", "BHO"))
    witnesses = (FixedReading(_reading("SDN", "BHD")), FixedReading(_reading("SDN", "BHD")))
    engine = ReceiptVoteEngine(first, witnesses)
    invoice = Image.new("RGB", (1240, 1754), "white")
    invoice.paste((0, 0, 0), (100, 100, 1140, 1600))
    assert engine.recognize(invoice, 150).text == "SON BHO"
    assert [w.calls for w in witnesses] == [0, 0]
    receipt = Image.new("RGB", (400, 1754), "white")
    receipt.paste((0, 0, 0), (50, 100, 350, 1600))
    assert engine.recognize(receipt, 150).text == "SDN BHD"
    assert [w.calls for w in witnesses] == [1, 1]


class FailingReading(FixedReading):
    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        raise EngineError("tesseract exited with 1: Failed loading language 'msa'")


def test_a_failing_witness_leaves_the_page_reading() -> None:
    engine = ReceiptVoteEngine(FixedReading(_reading("SON", "BHO")),
                               (FixedReading(_reading("SDN", "BHD")), FailingReading(_reading(""))))
    receipt = Image.new("RGB", (400, 1754), "white")
    receipt.paste((0, 0, 0), (50, 100, 350, 1600))
    assert engine.recognize(receipt, 150).text == "SON BHO"


class SheetWord(FixedReading):
    """Reads a sheet of one cut-out as ``text`` at the sheet's middle, and keeps the sheets' heights."""

    def __init__(self, text: str) -> None:
        super().__init__(OcrResult("", (), 0.0))
        self.text = text
        self.heights: list[int] = []

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        self.calls += 1
        self.heights.append(image.height)
        middle = image.height / 2 * 72 / dpi
        return OcrResult(self.text, (Word(self.text, 10, middle - 1, 80, middle + 1, 0.9),), 0.9)


def test_the_engine_breaks_a_tie_by_its_tie_breakers_reading_the_tied_stretch_enlarged() -> None:
    first = FixedReading(_reading("TOTAL", "9.60"))
    witnesses = tuple(FixedReading(_reading("TOTAL", text)) for text in ("9.00", "9.60", "9.00"))
    receipt = Image.new("RGB", (400, 1754), "white")
    receipt.paste((0, 0, 0), (50, 100, 350, 1600))
    agreeing, disagreeing = SheetWord("9.00"), SheetWord("9.60")
    assert ReceiptVoteEngine(first, witnesses, (agreeing, agreeing)).recognize(receipt, 150).text == "TOTAL 9.00"
    # one sheet a height and reader; the cut-out is enlarged more for the larger height
    assert agreeing.calls == 2 * len(TIE_BREAK_HEIGHTS)
    assert agreeing.heights[0] < agreeing.heights[-1]
    assert ReceiptVoteEngine(first, witnesses, (agreeing, disagreeing)).recognize(receipt, 150).text == "TOTAL 9.60"
    failing = FailingReading(_reading(""))
    assert ReceiptVoteEngine(first, witnesses, (agreeing, failing)).recognize(receipt, 150).text == "TOTAL 9.00"
    assert ReceiptVoteEngine(first, witnesses).recognize(receipt, 150).text == "TOTAL 9.60"
