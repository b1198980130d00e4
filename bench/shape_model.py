"""Experiment: could a page's shape alone, learned, catch the walls the rules miss?

Issue 21 asks for verdicts from evidence no wording changes. The rules' structural checks
each read one shape (a credential box that is the page's main thing, a host's template, a
bare notice); this asks the wider question once: given only counts of structure (letters of
main and visible text, links and where they point, forms and their fields, scripts, headings,
paragraphs, landmarks, the publisher's article markup; 36 numbers, no word of any language),
does a model trained on other sources' pages tell walls from clean pages well enough to add
what the rules miss, at the issue's false-alarm budget?

Pages: the corpora (walls, walls2, the 181 articles) and every development set read from
checkouts (``--fetch-dir``, as bench/devset3.py reads them; never the held-out sets), the
synthetic pages of tests/pages with ``--synthetic`` (written here, each its own source).
Every page is scored by a model that saw no page of its source: the sources are dealt into
ten folds (largest first, each to the fold with fewest pages: a page's source is never in its
own training fold). The model is an L2-regularised logistic regression fitted by Newton's
method in plain Python (no dependency); with ``--boosting`` and scikit-learn importable, a
gradient-boosted tree model too. For each false-alarm budget on clean pages (the share of
clean pages whose out-of-source score may pass the threshold), printed: the walls the model
alone finds, and what it would add to the rules (the walls the rules miss that it finds, the
clean pages the rules keep that it flags). Figures, not assertions.

    .venv/bin/python bench/shape_model.py --fetch-dir DIR [--synthetic] [--boosting]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import devset3  # sibling scripts, not a package: their readers are reused
import verdicts
from readreceipt.reading.basics import letters
from readreceipt.reading.fingerprint import judge_content

#: The labels whose pages are the page asked for (bench/verdicts.py expects them retrieved).
CLEAN = frozenset(
    label for label, (verdict, _) in verdicts.EXPECTED.items() if verdict == "RETRIEVED"
)
BUDGETS = (0.0, 0.005, 0.01, 0.02)
FOLDS = 10

_TAGS = {
    name: re.compile(rf"<{name}\b")
    for name in (
        "a",
        "form",
        "iframe",
        "script",
        "h1",
        "h2",
        "h3",
        "p",
        "nav",
        "footer",
        "header",
        "img",
        "li",
        "button",
        "select",
        "textarea",
        "noscript",
        "table",
        "article",
        "main",
        "svg",
        "time",
    )
}
# Every pattern reads inside one tag or one bounded element: linear on any page.
_INPUT = re.compile(r"<input\b([^<>]{0,600})>")
_TYPE = re.compile(r"""\btype\s*=\s*["']?([a-z]+)""")
_HREF = re.compile(r"""<a\b[^<>]{0,600}?\bhref\s*=\s*["']?([^"'\s>]{0,300})""")
_SCRIPT_BODY = re.compile(r"<script\b[^<>]{0,600}>([^<]{0,200000})</script>")
_NOINDEX = re.compile(r"<meta\b[^<>]{0,300}noindex")
_ARTICLE_TYPE = re.compile(
    r"og:type[\"']?\s{1,5}content\s*=\s*[\"']?article|"
    r"\"@type\"\s*:\s*\"(?:news)?article|\"@type\"\s*:\s*\"blogposting"
)
_CANONICAL = re.compile(r"<link\b[^<>]{0,300}rel\s*=\s*[\"']?canonical")
_TITLE = re.compile(r"<title\b[^<>]{0,300}>([^<]{0,2000})</title>")


def shape(p: verdicts.Page) -> tuple[list[float], bool]:
    """The page's 36 structural numbers, and whether the rules flag it."""
    view = verdicts._view(p)  # extracted once, as bench/verdicts.py --direct judges it
    body = p.body
    markup = (view.html or "").lower()
    main, page = letters(view.main_text), letters(view.page_text)
    tags = {name: len(p.findall(markup)) for name, p in _TAGS.items()}
    types: Counter[str] = Counter()
    for attrs in _INPUT.findall(markup):
        found = _TYPE.search(attrs)
        types[found.group(1) if found else "text"] += 1
    hrefs = _HREF.findall(markup)
    external = sum(h.startswith(("http:", "https:", "//")) for h in hrefs)
    script_chars = sum(len(s) for s in _SCRIPT_BODY.findall(markup))
    title = _TITLE.search(markup)
    lines = [line for line in view.main_text.split("\n") if line.strip()]
    digits = sum(c.isdigit() for c in view.page_text)
    log = math.log1p
    numbers = [
        log(main),
        log(page),
        main / (page + 1),
        log(len(body)),
        page / (len(markup) / 1000 + 1),
        log(len(hrefs)),
        external / (len(hrefs) + 1),
        log(tags["form"]),
        float(types["password"] > 0),
        log(types["text"] + types["email"] + types["tel"]),
        log(types["hidden"]),
        log(tags["button"] + types["submit"]),
        log(tags["iframe"]),
        log(tags["script"]),
        script_chars / (len(markup) + 1),
        log(tags["h1"]),
        log(tags["h2"] + tags["h3"]),
        log(tags["p"]),
        float(tags["nav"] > 0),
        float(tags["footer"] > 0),
        float(tags["header"] > 0),
        log(tags["img"]),
        log(letters(title.group(1)) if title else 0),
        float(_ARTICLE_TYPE.search(markup) is not None),
        float(_CANONICAL.search(markup) is not None),
        float(_NOINDEX.search(markup) is not None),
        log(len(lines)),
        main / (len(lines) + 1) / 100,
        digits / (len(view.page_text) + 1),
        log(tags["noscript"]),
        log(tags["li"]),
        log(tags["table"]),
        float(tags["article"] + tags["main"] > 0),
        log(tags["time"]),
        log(tags["svg"]),
        log(tags["select"] + tags["textarea"]),
    ]
    return numbers, judge_content(view) is not None


def pages(fetch_dir: Path | None, synthetic: bool) -> list[verdicts.Page]:
    """Every labelled page served as a success (a refusal by its status is the transport's
    verdict, not a shape) whose label bench/verdicts.py expects a verdict of (the ambiguous
    ones left out), each under its source (a synthetic page is its own)."""
    out = [
        dataclasses.replace(p, source=f"synthetic:{p.key}") if p.corpus == "synthetic" else p
        for p in verdicts.load_pages(synthetic=synthetic)
        if p.status < 400 and p.label in verdicts.EXPECTED
    ]
    for name in verdicts.DEVSETS if fetch_dir else ():
        for row in devset3.rows(Path(__file__).with_name(f"{name}_labels.tsv")):
            body = devset3.body(row, None, fetch_dir)
            if body and row["label"] in verdicts.EXPECTED:
                out.append(
                    verdicts.Page(
                        f"{name}/{row['id']}",
                        row["label"],
                        body,
                        200,
                        {"content-type": "text/html; charset=utf-8"},
                        name,
                        row["source_repo"],
                    )
                )
    return out


def folds(sources: Sequence[str], k: int = FOLDS) -> list[int]:
    """Each page's fold: whole sources dealt largest first to the fold with fewest pages."""
    sizes = Counter(sources)
    load = [0] * k
    fold_of: dict[str, int] = {}
    for source, n in sorted(sizes.items(), key=lambda kv: (-kv[1], kv[0])):
        best = min(range(k), key=lambda i: (load[i], i))
        fold_of[source] = best
        load[best] += n
    return [fold_of[s] for s in sources]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (a is small and positive
    definite: the Hessian plus the ridge)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


def logistic(
    xs: list[list[float]], ys: list[int], ridge: float = 1.0, steps: int = 25
) -> Callable[[list[float]], float]:
    """An L2-regularised logistic regression on standardised features (Newton's method),
    returned as a scorer of one page's numbers."""
    n, d = len(xs), len(xs[0])
    mean = [sum(x[j] for x in xs) / n for j in range(d)]
    sd = [math.sqrt(sum((x[j] - mean[j]) ** 2 for x in xs) / n) or 1.0 for j in range(d)]

    def scaled(x: list[float]) -> list[float]:
        return [1.0, *((x[j] - mean[j]) / sd[j] for j in range(d))]

    rows = [scaled(x) for x in xs]
    w = [0.0] * (d + 1)
    for _ in range(steps):
        p = [_sigmoid(sum(a * b for a, b in zip(w, r, strict=True))) for r in rows]
        grad = [
            sum((p[i] - ys[i]) * rows[i][j] for i in range(n)) + (ridge * w[j] if j else 0)
            for j in range(d + 1)
        ]
        hess = [[0.0] * (d + 1) for _ in range(d + 1)]
        for i, r in enumerate(rows):
            q = p[i] * (1 - p[i])
            for j in range(d + 1):
                qj = q * r[j]
                row = hess[j]
                for k in range(j, d + 1):
                    row[k] += qj * r[k]
        for j in range(d + 1):
            for k in range(j):
                hess[j][k] = hess[k][j]
            hess[j][j] += ridge if j else 1e-9
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return lambda x: _sigmoid(sum(a * b for a, b in zip(w, scaled(x), strict=True)))


def boosted(xs: list[list[float]], ys: list[int]) -> Callable[[list[float]], float]:
    from sklearn.ensemble import HistGradientBoostingClassifier  # optional: --boosting

    model = HistGradientBoostingClassifier(
        max_depth=3, max_iter=200, learning_rate=0.05, random_state=0
    ).fit(xs, ys)
    return lambda x: float(model.predict_proba([x])[0][1])


def out_of_source(
    xs: list[list[float]],
    ys: list[int],
    fold: list[int],
    fit: Callable[[list[list[float]], list[int]], Callable[[list[float]], float]],
) -> list[float]:
    scores = [0.0] * len(ys)
    for f in sorted(set(fold)):
        train = [i for i in range(len(ys)) if fold[i] != f]
        score = fit([xs[i] for i in train], [ys[i] for i in train])
        for i in range(len(ys)):
            if fold[i] == f:
                scores[i] = score(xs[i])
    return scores


def report(
    name: str, scores: list[float], ys: list[int], flagged: list[bool], keys: list[str]
) -> dict[str, object]:
    walls = sum(ys)
    missed = [i for i in range(len(ys)) if ys[i] and not flagged[i]]
    kept = [i for i in range(len(ys)) if not ys[i] and not flagged[i]]
    clean = sorted((scores[i] for i in range(len(ys)) if not ys[i]), reverse=True)
    print(f"\n{name}, every page scored by a model that saw no page of its source:")
    rows: dict[str, object] = {}
    for budget in BUDGETS:
        k = int(budget * len(clean))
        threshold = clean[k] + 1e-12 if k < len(clean) else 0.0
        alone = sum(1 for i in range(len(ys)) if ys[i] and scores[i] >= threshold)
        alone_clean = sum(1 for i in range(len(ys)) if not ys[i] and scores[i] >= threshold)
        added = sum(1 for i in missed if scores[i] >= threshold)
        added_clean = sum(1 for i in kept if scores[i] >= threshold)
        rows[str(budget)] = [alone, alone_clean, added, added_clean]
        print(
            f"  clean budget {budget:5.1%} (score >= {threshold:.3f}): alone {alone}/{walls} "
            f"walls, {alone_clean}/{len(clean)} clean; beside the rules: {added} of the "
            f"{len(missed)} walls they miss, {added_clean} of the {len(kept)} clean pages "
            "they keep"
        )
    top_missed = sorted(((scores[i], keys[i]) for i in missed), reverse=True)[:8]
    top_clean = sorted(((scores[i], keys[i]) for i in kept), reverse=True)[:8]
    print("  the rules' misses scored highest: " + ", ".join(f"{k} {s:.3f}" for s, k in top_missed))
    print("  the clean pages scored highest:   " + ", ".join(f"{k} {s:.3f}" for s, k in top_clean))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--fetch-dir", type=Path, help="folder of the development sets' checkouts")
    ap.add_argument("--synthetic", action="store_true", help="the synthetic pages too")
    ap.add_argument(
        "--boosting",
        action="store_true",
        help="a gradient-boosted model too (needs scikit-learn importable)",
    )
    args = ap.parse_args()
    if args.fetch_dir is not None and not args.fetch_dir.is_dir():
        print(f"shape_model: {args.fetch_dir} is not a folder of checkouts", file=sys.stderr)
        return 2
    found = pages(args.fetch_dir, args.synthetic)
    keys, xs, ys, sources, flagged = [], [], [], [], []
    for p in found:
        numbers, flags = shape(p)
        keys.append(p.key)
        xs.append(numbers)
        ys.append(int(p.label not in CLEAN))
        sources.append(p.source)
        flagged.append(flags)
    walls = sum(ys)
    print(
        f"{len(ys)} pages from {len(set(sources))} sources: {walls} walls, shells, soft 404s "
        f"and parked pages, {len(ys) - walls} clean"
    )
    print(
        f"the rules: {sum(f for f, y in zip(flagged, ys, strict=True) if y)}/{walls} walls "
        f"flagged, {sum(f for f, y in zip(flagged, ys, strict=True) if not y)}/"
        f"{len(ys) - walls} clean pages flagged"
    )
    fold = folds(sources)
    report("logistic regression", out_of_source(xs, ys, fold, logistic), ys, flagged, keys)
    if args.boosting:
        try:
            import sklearn  # noqa: F401  # optional, only to say it is absent
        except ImportError:
            print("\nboosting skipped: scikit-learn is not importable here")
        else:
            report(
                "gradient-boosted trees", out_of_source(xs, ys, fold, boosted), ys, flagged, keys
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
