"""The offline brain's audit (docs/brain.md, "The offline brain listens"): what owners type to a
pet over a few days (tests/support/offline_audit.py, several fresh homes), played turn by turn
through the real prompt assembly and the real brain with what core keeps between turns (the
recent window, each `remember` kept by (collection, name), each `forget` applied, the owner's
rules as core.owner_rules reads them). Every reply is judged by class; prints each line, its
reply and what is wrong with it, then how many lines read badly, by class.

    .venv/bin/python scripts/offline_audit.py [--bad]
        [--held-apart | --held-apart-2 | --held-apart-3 | --held-apart-4 | --held-apart-5
         | --held-apart-6 | --held-apart-7 | --held-apart-8 | --held-apart-9 | --held-apart-10
         | --held-apart-11 | --held-apart-12 | --held-apart-13 | --untuned-13
         | --held-apart-14]

--bad prints only the lines that read badly; --held-apart plays the lines written after the
fixes (never tuned on) instead of the audit's own; --held-apart-2 the sixth pass's set, written
before its fixes and never tuned on (tests/support/offline_audit_phone.py). Each set's figure
is printed apart: the first passes' (tests/support/offline_audit.py), the chat pass's
(tests/support/offline_audit_chat.py) and the pet pass's (tests/support/offline_audit_pet.py;
its tuning set tests/support/offline_audit_pet_tuning.py) and the phone pass's tuning set
(tests/support/offline_audit_phone_tuning.py), and the ninth pass's tuning set
(tests/support/offline_audit_pet_9.py). --held-apart-3 plays the seventh pass's set, written
before its fixes, and apart the lines written after them (tests/support/offline_audit_phone_3.py).
--held-apart-4 the eighth pass's set, written before its fixes, and apart the lines written after
them (tests/support/offline_audit_pet_8.py). --held-apart-5 the ninth pass's set, written before
its fixes, and apart the lines written after them (tests/support/offline_audit_pet_9.py).
--held-apart-6 the tenth pass's set, written before its fixes, and apart the lines written after
them (tests/support/offline_audit_pet_10.py; a line's `at` moves the pet's clock to a later day).
--held-apart-7 the eleventh pass's set (other owners: a teenager, a retired teacher, a busy parent,
a speaker of English as a second language), written before its fixes, and apart the lines written
after them (tests/support/offline_audit_pet_11.py, PET_11_AFTER).
--held-apart-8 the twelfth pass's set (a night-shift nurse, a student cramming, someone grieving,
someone planning a trip), written before its fixes, and apart the lines written after them
(tests/support/offline_audit_pet_12.py, PET_12_AFTER).
--held-apart-9 the thirteenth pass's set (two facts in one line, a relation's birthday said
relative to today, an idea about someone, feelings the mood lists missed, forgetting what was
never kept), written before its fixes, and apart the lines written after them
(tests/support/offline_audit_pet_13.py, PET_13_AFTER).
--held-apart-10 the fourteenth pass's set (a greeting with a name, a former job, "next friday" of a
plan, a let-down said with "not", a correction, an ache, day words typed short, a laugh, a
complaint about the pet, a question typed as a text), written before its fixes, and apart the
lines written after them (tests/support/offline_audit_pet_14.py, PET_14_AFTER).
--held-apart-11 the fifteenth pass's set (a correction of a value kept under another entry, an
answer in a kept line said as a gap, family read from a complaint, a dislike with an order to the
pet, a relation's pronoun, a plan said as thinking), written before its fixes, and apart the
lines written after them (tests/support/offline_audit_pet_15.py, PET_15_AFTER).
--held-apart-12 the sixteenth pass's set (two relations of one kind, a pronoun in a correction, a
referent further back than three lines, a former job past the window, a test not passed, an
addition said as a correction), written before its fixes, and apart the lines written after them
(tests/support/offline_audit_pet_16.py, PET_16_AFTER).
--held-apart-13 the eighteenth pass's set (a person's coming birthday or age, a change of habit, she
or he for a known relation, each low feeling in words of its own, a compound said with its subject
once), written before its fixes (tests/support/offline_audit_pet_18.py, PET_18_HELD_APART);
--untuned-13 the small owner written with it and never tuned on (PET_18_UNTUNED).
--held-apart-14 the nineteenth pass's set (a question about a day, a relation's skill, a meal
idea from the owner's diet, a relation's new baby named, an achievement with a figure, a shopping
need), written before its fixes (tests/support/offline_audit_pet_19.py, PET_19_HELD_APART).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support.offline_audit import HELD_APART, HOMES, Home, play
from support.offline_audit_chat import CHAT, CHAT_HELD_APART
from support.offline_audit_pet import PET_HELD_APART
from support.offline_audit_pet_8 import PET_8_AFTER, PET_8_HELD_APART
from support.offline_audit_pet_9 import PET_9_AFTER, PET_9_HELD_APART, PET_9_TUNING
from support.offline_audit_pet_10 import PET_10_AFTER, PET_10_HELD_APART
from support.offline_audit_pet_11 import PET_11_AFTER, PET_11_HELD_APART
from support.offline_audit_pet_12 import PET_12_AFTER, PET_12_HELD_APART
from support.offline_audit_pet_13 import PET_13_AFTER, PET_13_HELD_APART
from support.offline_audit_pet_14 import PET_14_AFTER, PET_14_HELD_APART
from support.offline_audit_pet_15 import PET_15_AFTER, PET_15_HELD_APART
from support.offline_audit_pet_16 import PET_16_AFTER, PET_16_HELD_APART
from support.offline_audit_pet_18 import PET_18_HELD_APART, PET_18_UNTUNED
from support.offline_audit_pet_19 import PET_19_HELD_APART
from support.offline_audit_pet_tuning import PET_TUNING
from support.offline_audit_phone import PHONE_HELD_APART
from support.offline_audit_phone_3 import PHONE_3_AFTER, PHONE_3_HELD_APART
from support.offline_audit_phone_tuning import PHONE_TUNING


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bad", action="store_true", help="print only the lines that read badly")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--held-apart", action="store_true", help="the lines written after the fixes instead"
    )
    which.add_argument(
        "--held-apart-2", action="store_true", help="the sixth pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-3", action="store_true", help="the seventh pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-4", action="store_true", help="the eighth pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-5", action="store_true", help="the ninth pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-6", action="store_true", help="the tenth pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-7", action="store_true", help="the eleventh pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-8", action="store_true", help="the twelfth pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-9", action="store_true", help="the thirteenth pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-10", action="store_true", help="the fourteenth pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-11", action="store_true", help="the fifteenth pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-12", action="store_true", help="the sixteenth pass's held-apart set instead"
    )
    which.add_argument(
        "--held-apart-13", action="store_true", help="the eighteenth pass's held-apart set instead"
    )
    which.add_argument(
        "--untuned-13", action="store_true", help="the eighteenth pass's untuned owner instead"
    )
    which.add_argument(
        "--held-apart-14", action="store_true", help="the nineteenth pass's held-apart set instead"
    )
    args = parser.parse_args()
    classes: Counter[str] = Counter()
    sets: tuple[tuple[str, tuple[Home, ...]], ...] = (
        ("first passes", HOMES),
        ("chat pass", CHAT),
        ("pet pass", PET_TUNING),
        ("phone pass tuning", PHONE_TUNING),
        ("ninth pass tuning", PET_9_TUNING),
    )
    if args.held_apart:
        sets = (
            ("first passes", HELD_APART),
            ("chat pass", CHAT_HELD_APART),
            ("pet pass", PET_HELD_APART),
        )
    elif args.held_apart_2:
        sets = (("phone pass", PHONE_HELD_APART),)
    elif args.held_apart_3:
        sets = (
            ("phone pass 3", PHONE_3_HELD_APART),
            ("phone pass 3, written after its fixes", PHONE_3_AFTER),
        )
    elif args.held_apart_4:
        sets = (
            ("eighth pass", PET_8_HELD_APART),
            ("eighth pass, written after its fixes", PET_8_AFTER),
        )
    elif args.held_apart_5:
        sets = (
            ("ninth pass", PET_9_HELD_APART),
            ("ninth pass, written after its fixes", PET_9_AFTER),
        )
    elif args.held_apart_6:
        sets = (
            ("tenth pass", PET_10_HELD_APART),
            ("tenth pass, written after its fixes", PET_10_AFTER),
        )
    elif args.held_apart_7:
        sets = (
            ("eleventh pass", PET_11_HELD_APART),
            ("eleventh pass, written after its fixes", PET_11_AFTER),
        )
    elif args.held_apart_8:
        sets = (
            ("twelfth pass", PET_12_HELD_APART),
            ("twelfth pass, written after its fixes", PET_12_AFTER),
        )
    elif args.held_apart_9:
        sets = (
            ("thirteenth pass", PET_13_HELD_APART),
            ("thirteenth pass, written after its fixes", PET_13_AFTER),
        )
    elif args.held_apart_10:
        sets = (
            ("fourteenth pass", PET_14_HELD_APART),
            ("fourteenth pass, written after its fixes", PET_14_AFTER),
        )
    elif args.held_apart_11:
        sets = (
            ("fifteenth pass", PET_15_HELD_APART),
            ("fifteenth pass, written after its fixes", PET_15_AFTER),
        )
    elif args.held_apart_12:
        sets = (
            ("sixteenth pass", PET_16_HELD_APART),
            ("sixteenth pass, written after its fixes", PET_16_AFTER),
        )
    elif args.held_apart_13:
        sets = (("eighteenth pass", PET_18_HELD_APART),)
    elif args.untuned_13:
        sets = (("eighteenth pass, never tuned on", PET_18_UNTUNED),)
    elif args.held_apart_14:
        sets = (("nineteenth pass", PET_19_HELD_APART),)
    figures: list[str] = []
    for set_name, homes in sets:
        total = bad = 0
        for home in homes:
            print(f"\n## {home.name}")
            for said, reply, why in play(home):
                total += 1
                bad += bool(why)
                classes.update(why)
                if why or not args.bad:
                    mark = "  BAD " + "; ".join(why) if why else ""
                    print(f"> {said}\n  {reply}{mark}")
        figures.append(f"{bad} of {total} lines read badly ({set_name})")
    print("\n" + "\n".join(figures))
    for name, count in classes.most_common():
        print(f"  {count:3d}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
