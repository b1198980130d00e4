"""Quotations: are the passages an answer quotes on the page it quotes?

``quotations`` finds the quoted passages in an answer and checks each against the page's
texts; ``marks`` pairs the quotation marks of every script, ``scripts`` weighs a passage's
length by its script, ``edits`` reads elisions and editorial brackets and places the pieces,
``negations`` lists what a match may never drop; ``textfold`` and ``foldchars`` fold both
sides the same way with a map back to the page's own characters; ``textmatch`` decides what
may differ and still match and finds the nearest passage when nothing does;
``pagereadings`` adds further readings of a page (without footnote markers, TeX as rendered,
PDF line-end hyphens, CJK numerals as digits); ``answers`` decides whether a check may run at
all and writes its outcome to the store.

Everything but ``answers`` is pure. May import ``errors``, ``reading`` (result types) and,
from ``answers`` only, ``store``.
"""
