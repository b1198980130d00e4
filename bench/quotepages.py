"""Pages in other languages for bench/quotes.py: the corpus's own, and a few written here.

The corpus's articles are mostly English; its wall and hard-negative folders hold real pages
in German, Czech, Portuguese, Spanish, Italian, Zulu, Vietnamese, Russian, Arabic and
Japanese, and the articles a few in Korean, Japanese and Russian. Chinese, French and Polish
are missing, and Thai, voweled Arabic and numbers grouped by no-break spaces, so the pages
below were written for this benchmark (plain news prose, with the
numbers, negations, qualifiers and names a misquote changes). They are not the corpus and
are reported apart (script ``... (written)``).
"""

# ruff: noqa: RUF001, E501 - the pages are typeset as their languages are, a paragraph a line
from __future__ import annotations

import glob
import gzip
import json
import random
import re
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import quoteforms as qf  # bench/ is the script's own directory, first on sys.path

WRITTEN: dict[str, tuple[str, str]] = {
    "zh-bridge": ("zh", """
南江大桥加固工程昨日正式完工，比原计划晚了两年。市政府表示，工程共耗资三千五百万元，其中约四成来自中央财政补贴。

工程师在施工期间更换了全桥四百八十个支座中的二百一十二个。项目负责人李明说：“我们没有让大桥变得更坚固，而是让它变得更有韧性。”他补充说，大桥在未来五十年内不需要再次大规模维修。

部分市民对工期延误表示不满。住在桥边的王女士说，施工期间她每天上班要多花四十分钟。市政府承认，最初的计划低估了旧桥墩的损坏程度。

根据交通部门的数据，大桥每天通行车辆约为六万辆，高峰时段超过八千辆。工程完工后，大桥的限速将从每小时六十公里提高到八十公里。交通局局长张华表示，新的限速不会立即生效，而是要等到明年三月的安全评估结束以后。

二〇二五年的预算报告显示，该市今年用于桥梁维护的资金比去年增加了百分之十五。市议会尚未批准下一阶段的北江大桥改造计划。
"""),
    "zh-economy": ("zh", """
国家统计局周三公布的数据显示，今年第三季度国内生产总值同比增长百分之四点八，略低于市场预期。分析人士认为，消费需求疲软是增长放缓的主要原因。

统计局发言人在新闻发布会上说：“经济运行总体平稳，但外部环境仍然复杂多变。”她指出，服务业增加值增长百分之五点二，工业增加值增长百分之四点一。

出口方面，九月份出口额同比下降百分之二点三，为今年以来首次下降。海关总署表示，对欧洲的出口降幅最大，而对东南亚的出口仍保持增长。

房地产投资继续下滑，前三季度同比减少百分之十点一。多位经济学家建议政府出台更多支持措施，但央行行长表示，目前没有必要大幅降息。他说，货币政策将保持稳健，不会搞大水漫灌。

城镇调查失业率为百分之五点一，与上月持平。其中，十六至二十四岁青年失业率仍然偏高。
"""),
    "zh-tw-museum": ("zh", """
國立歷史博物館經過六年整修，將於明年一月重新開放。館方表示，整修工程總經費約為新臺幣九億元，比原本預估多出一億五千萬元。

館長陳志明在記者會上說：「我們不是要把博物館變成一座新建築，而是要讓老建築重新被看見。」他強調，整修期間所有文物都已妥善保存，沒有任何一件受損。

新館將增設三個常設展廳，展出面積擴大到原來的兩倍。其中一個展廳專門展示十九世紀的臺灣民間工藝，共有一千二百件展品。

部分學者批評，整修延宕太久，讓研究人員無法使用館藏將近六年。館方回應，延誤主要是因為建築結構比預期脆弱，必須先進行補強。開館初期將實施預約入場，每天最多開放三千人參觀。
"""),
    "ko-library": ("ko", """
서울시는 새 중앙도서관을 다음 달 15일에 개관한다고 29일 밝혔다. 도서관은 지하 3층, 지상 7층 규모로 건립됐으며, 총사업비는 약 1,200억 원이 들었다.

시 관계자는 "당초 계획보다 공사 기간이 1년 늘어났지만 예산은 초과하지 않았다"고 말했다. 도서관에는 장서 50만 권이 비치되며, 이 가운데 10만 권은 전자책이다.

일부 주민들은 주차 공간이 부족하다고 지적했다. 도서관 주차장은 200대를 수용할 수 있지만, 주말 방문객은 하루 5천 명을 넘을 것으로 예상된다. 시는 주차장을 추가로 짓지 않고 대중교통 이용을 권장하기로 했다.

도서관장은 "어린이 열람실은 평일에도 저녁 9시까지 운영하지 않는다"며 "대신 주말에는 오전 8시에 문을 연다"고 설명했다. 시의회는 아직 내년 운영 예산을 승인하지 않았다.
"""),
    "fr-bridge": ("fr", """
La rénovation du pont de la Loire s’est achevée mardi, avec deux ans de retard sur le calendrier initial. Selon la mairie, les travaux ont coûté 48 millions d’euros, dont près de 40 % financés par l’État.

« Nous n’avons pas rendu le pont plus solide, nous l’avons rendu plus souple », a expliqué l’ingénieure en chef, Claire Dubois, lors de l’inauguration. Les équipes ont remplacé 212 des 480 appuis de l’ouvrage.

Les riverains se sont plaints du bruit pendant les quatre années de chantier. La maire a reconnu que le planning de départ sous-estimait l’état des anciennes piles. Elle a toutefois assuré que le pont ne nécessiterait aucune réparation majeure avant 2070.

Environ 60 000 véhicules empruntent le pont chaque jour. La vitesse y sera relevée de 50 à 70 km/h, mais pas avant la fin de l’évaluation de sécurité prévue en mars. Le conseil municipal n’a pas encore approuvé le projet de rénovation du pont voisin.
"""),
    "pl-hospital": ("pl", """
Nowy szpital wojewódzki w Lublinie przyjął we wtorek pierwszych pacjentów, półtora roku później, niż zakładano. Budowa kosztowała 620 milionów złotych, z czego około 70 procent pochodziło z funduszy unijnych.

„Nie budowaliśmy szpitala dla urzędników, tylko dla pacjentów” – powiedział dyrektor placówki Marek Nowak podczas otwarcia. Szpital ma 540 łóżek i 14 sal operacyjnych.

Związki zawodowe ostrzegają, że w szpitalu brakuje co najmniej 120 pielęgniarek. Dyrekcja przyznała, że nie wszystkie oddziały zostaną otwarte od razu. Oddział pediatryczny rozpocznie pracę dopiero w czerwcu.

Według urzędu marszałkowskiego szpital będzie przyjmował rocznie około 30 tysięcy pacjentów. Radni sejmiku nie zatwierdzili jeszcze budżetu na drugi etap inwestycji.
"""),
    "ja-station": ("ja", """
北浜駅の改良工事が二〇二五年三月に完了し、新しい駅舎の利用が始まった。工事費は当初の計画より約三割多い四十二億円となった。

鉄道会社の広報担当者は「工事の遅れは地盤の状態が想定より悪かったためで、安全上の問題はなかった」と説明した。新駅舎にはエレベーターが六基設置され、改札口は二か所から四か所に増えた。

一日の乗降客数はおよそ三万五千人で、朝の混雑時には一時間に二十本の列車が発着する。一方、駅前の駐輪場は工事前より百台少ない八百台分しか確保できなかった。

市長は記者会見で「駅前広場の整備はまだ終わっていない」と述べ、来年度中の完成を目指す考えを示した。地元の商店会は、工事期間中に売り上げが減少したとして、市に支援を求めている。
"""),
    # Typeset as their languages are: Arabic with some words voweled and one stretched by a
    # tatweel, French and Russian with thousands grouped by narrow no-break and no-break
    # spaces, Thai with the negation ไม่ glued to the verb it negates.
    "ar-market": ("ar", """
افتتحت البلدية يوم الثلاثاء السوقَ المركزيَّ الجديد بعد تأخير دام عامين، وبلغت تكلفة المشروع نحو 45 مليون دينار.

وقال رئيس البلدية في حفل الافتتاح: «لم نَبنِ سوقاً أكبر، بل بنينا سوقاً أكثر تنظيماً وأماناً للتجار والزبائن». ويضم السوق 320 محلاً تجارياً وموقفاً يتسع لـ 600 سيارة.

واشتكى عددٌ من التجار من ارتفاع الإيجارات في المبنى الجديـــد، إذ قالوا إنها تزيد بنحو الثلث على ما كانوا يدفعونه في السوق القديم. وأكدت البلدية أن الإيجارات لن ترتفع قبل نهاية العام المقبل.

ويتوقع المسؤولون أن يستقبل السوق قرابة 15 ألف زائر يومياً، غير أن المجلس البلدي لم يوافق بعدُ على خطة توسيع الطريق المؤدي إليه.
"""),
    "th-canal": ("th", """
กรุงเทพมหานครเปิดใช้ประตูระบายน้ำแห่งใหม่ที่คลองบางเขนเมื่อวันอังคาร หลังการก่อสร้างล่าช้ากว่ากำหนดเกือบสองปี โครงการนี้ใช้งบประมาณทั้งสิ้น 850 ล้านบาท

ผู้อำนวยการสำนักการระบายน้ำกล่าวว่า ประตูระบายน้ำแห่งนี้ไม่สามารถป้องกันน้ำท่วมได้ทั้งหมด แต่จะช่วยลดระดับน้ำในชุมชนริมคลองได้อย่างมาก

ชาวบ้านบางส่วนไม่เห็นด้วยกับการปิดถนนเลียบคลองในช่วงก่อสร้าง เพราะต้องใช้เวลาเดินทางเพิ่มขึ้นวันละกว่าหนึ่งชั่วโมง สำนักงานเขตยอมรับว่าแผนเดิมไม่ได้คำนึงถึงเส้นทางเลี่ยงสำหรับรถโรงเรียน

กรุงเทพมหานครยังไม่ได้อนุมัติงบประมาณสำหรับประตูระบายน้ำแห่งที่สองที่คลองลาดพร้าว
"""),
    "fr-museum": ("fr", """
Le musée des Beaux-Arts rouvrira ses portes le 14 septembre après cinq ans de travaux. Le chantier a coûté 38\u202f500\u202f000 euros, soit 12\u00a0% de plus que le budget voté en 2019.

« Nous n’avons pas voulu un musée plus grand, mais un musée plus lisible », a expliqué la directrice, Hélène Marchal. Les salles présenteront 1\u202f200 œuvres, contre 900 avant la fermeture.

Le musée espère accueillir 250\u00a0000 visiteurs la première année. La ville n’a pas encore fixé le prix du billet, qui ne devrait pas dépasser 12 euros.
"""),
    "ru-theatre": ("ru", """
Драматический театр открылся после реконструкции, которая продлилась на полтора года дольше, чем планировалось. Работы обошлись в 2\u00a0300 миллионов рублей.

«Мы не пытались построить новый театр, мы хотели вернуть старому его голос», — сказал художественный руководитель театра Андрей Лебедев. Зрительный зал теперь вмещает 1\u00a0150 человек.

Часть жителей недовольна тем, что парковку у театра так и не расширили. Городская дума пока не утвердила бюджет на ремонт соседней площади.
"""),
}


# --------------------------------------------------------------------------- loading pages


# ../shared beside the checkout, or beside the folder that holds it (a worktree)
CORPUS = next((p / "shared" / "corpus" for p in Path(__file__).resolve().parents[2:4]
               if (p / "shared" / "corpus").is_dir()),
              Path(__file__).resolve().parents[2] / "shared" / "corpus")
# The language of each non-English page of the wall folders (read off the page).
_LANG = {"osthessen": "de", "handelsblatt": "de", "postillon": "de", "aktualne": "cs",
         "gazetadopovo": "pt", "ladiaria": "es", "remember8090": "it", "isolezwe": "zu",
         "vnexpress": "vi", "skyrim": "ru", "cnn_arabic": "ar", "asahi": "ja", "nikkei": "ja",
         "zdnet_japan": "ja"}


def _lang(name: str, text: str) -> str:
    for stem, lang in _LANG.items():
        if stem in name:
            return lang
    script = qf.script_of(text)
    return {"han/kana": "ja", "hangul": "ko", "cyrillic": "ru", "arabic": "ar"}.get(script, "en")


def load(articles: list[dict[str, Any]], english: int) -> list[dict[str, Any]]:
    """The pages the forms are tried on: every wall-folder hard negative and article about
    walls, the articles not in English, ``english`` English articles, and the written pages."""
    from readreceipt.reading.extract import extract

    pages: list[dict[str, Any]] = []
    for path in sorted(glob.glob(str(CORPUS / "walls*" / "hard_negative" / "*.html"))
                       + glob.glob(str(CORPUS / "walls*" / "article_about_walls" / "*.html"))):
        body = Path(path).read_bytes()
        if body[:2] == b"\x1f\x8b":
            body = gzip.decompress(body)
        got = extract(body, "text/html", None)
        name = Path(path).stem
        pages.append({"name": name, "main": got.main_text, "page": got.page_text,
                      "lang": _lang(name, got.main_text), "written": False})
    taken = 0
    for article in articles:
        lang = _lang(article["name"], article["body_text"])
        if lang == "en":
            if taken >= english:
                continue
            taken += 1
        pages.append({"name": article["name"], "main": article["main"], "page": article["page"],
                      "lang": lang, "written": False})
    for name, (lang, text) in WRITTEN.items():
        pages.append({"name": name, "main": text.strip(), "page": text.strip(), "lang": lang,
                      "written": True})
    for page in pages:
        page["script"] = qf.script_of(page["main"] or page["page"]) + (
            " (written)" if page["written"] else "")
    return pages


# ------------------------------------------------------------------------------ the cases

_PIECES = re.compile(r"\[[^\]]*\]|\(\s*\.\s*\.\s*\.\s*\)|\.\s?\.\s?\.|…"
                     r"|[(（［〔]\s*(?:中略|略|…+|\.{3})\s*[)）］〕]|[［〔][^］〕]{1,20}[］〕]|・{2,}|<\s*(?:…|\.{3})\s*>")


def _on_page(text: str, held: tuple[str, str]) -> bool:
    """Whether every piece of ``text`` (elisions and brackets cut out) is on the page."""
    pieces = [qf.key(p).strip(".,;:。、，") for p in _PIECES.split(text)]
    return all(p in held[0] or p in held[1] for p in pieces if p)


def build_cases(page: dict[str, Any], per_form: int, rng: random.Random) -> list[dict[str, Any]]:
    held = (qf.key(page["main"]), qf.key(page["page"]))
    candidates = qf.sentences(page["main"]) or qf.sentences(page["page"])
    if not candidates:
        return []
    lang = page["lang"]

    def edit(form: str, passage: str, kind: str) -> tuple[str, str | None] | None:
        change = None
        if kind == "altered":
            changed = qf.alter(passage, lang, page["page"], rng)
            if changed is None:
                return None
            passage, change = changed
        if form == "elided":
            edited = qf.elide(passage, rng)
        elif form == "bracketed":
            edited = qf.bracket(passage, lang, rng)
        else:
            edited = passage
        if edited is None or not qf.quotable(edited, form) or \
                _on_page(edited, held) != (kind == "faithful"):
            return None  # a misquote the cut left out, or nothing to edit
        return edited, change

    cases = _fill(page, qf.FORMS, candidates, held, per_form, rng, lambda form: form, edit,
                  lambda edited, form: qf.typeset(edited, form, lang, rng)[0])
    return cases + _local_cases(page, candidates, held, per_form)


def _local_cases(page: dict[str, Any], candidates: list[str], held: tuple[str, str],
                 per_form: int) -> list[dict[str, Any]]:
    """The cases of the local conventions (quoteforms.LOCAL_FORMS), from a random stream of
    the page's own."""
    rng = random.Random(zlib.crc32(page["name"].encode()))  # noqa: S311 - a sample, not a secret
    lang = page["lang"]

    def edit(form: str, passage: str, kind: str) -> tuple[str, str | None] | None:
        made = qf.local_case(passage, form, lang, kind, rng)
        if made is None:
            return None
        # An altered case must not be on the page, but the negation at the edge is: its
        # words are the page's, its meaning is not.
        if form != "negation at the edge" and _on_page(made[0], held) != (kind == "faithful"):
            return None
        return made

    return _fill(page, qf.LOCAL_FORMS, candidates, held, per_form, rng, lambda form: "curly",
                 edit, lambda edited, form: qf.typeset_local(edited, form, lang, rng))


def _fill(page: dict[str, Any], forms: list[str], candidates: list[str],
          held: tuple[str, str], per_form: int, rng: random.Random,
          quotable_as: Callable[[str], str],
          edit: Callable[[str, str, str], tuple[str, str | None] | None],
          answer: Callable[[str, str], str]) -> list[dict[str, Any]]:
    """Up to ``per_form`` faithful and altered cases per form: a fragment of a sentence the
    page holds, edited by ``edit`` (None: try another), typeset by ``answer``."""
    from readreceipt.quotes.scripts import latin_length

    cases: list[dict[str, Any]] = []
    for form in forms:
        faithful = altered = 0
        order = candidates[:]
        rng.shuffle(order)
        for sentence in order * 3:
            if faithful >= per_form and altered >= per_form:
                break
            passage = qf.fragment(sentence, rng)
            if not _on_page(passage, held) or not qf.quotable(passage, quotable_as(form)):
                continue
            kind = "faithful" if faithful < per_form else "altered"
            made = edit(form, passage, kind)
            if made is None:
                continue
            edited, change = made
            if latin_length(" ".join(_PIECES.split(edited))) < 34:
                continue  # what is left is a term, not a passage
            cases.append({"kind": kind, "change": change, "form": form,
                          "script": page["script"], "passage": edited,
                          "answer": answer(edited, form)})
            faithful += kind == "faithful"
            altered += kind == "altered"
    return cases


def report(pages: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """The per-form and per-script tables, and the cases with a wrong outcome."""
    cases = [c for p in pages for c in p["cases"]]
    lines = []
    for title, field in (("form", "form"), ("script", "script"), ("change", "change")):
        lines.append(f"{title:24}{'faithful found':>24}{'altered flagged':>24}{'not_run':>9}"
                     f"{'edited':>8}")
        groups = sorted({str(c[field]) for c in cases})
        for group in groups:
            these = [c for c in cases if str(c[field]) == group]
            if field == "change" and group == "None":
                continue
            lines.append(_row(group, these))
        lines.append(_row("all", cases))
        lines.append("")
    unchecked = Counter(str(c["ours_detail"]["reason"]) for c in cases if c["ours"] == "not_run")
    share = 100 * sum(unchecked.values()) / max(len(cases), 1)
    lines.append(f"quotation-shaped passages left unchecked: {share:.2f} % "
                 f"({sum(unchecked.values())}/{len(cases)})"
                 + (f": {dict(unchecked)}" if unchecked else ""))
    misses = [{"page": p["name"], **{k: v for k, v in c.items()}}
              for p in pages for c in p["cases"]
              if c["ours"] != ("found" if c["kind"] == "faithful" else "not_found")]
    return lines, misses


def _row(name: str, cases: list[dict[str, Any]]) -> str:
    faithful = [c for c in cases if c["kind"] == "faithful"]
    altered = [c for c in cases if c["kind"] == "altered"]
    found = sum(c["ours"] == "found" for c in faithful)
    flagged = sum(c["ours"] == "not_found" for c in altered)
    edited = sum(any(p.get("edited") for p in c["ours_detail"]["passages"]) for c in cases)
    not_run = sum(c["ours"] == "not_run" for c in cases)

    def share(n: int, d: int) -> str:
        return f"{100 * n / d:6.2f} % ({n}/{d})" if d else f"{'-':>6}"

    return f"{name:24}{share(found, len(faithful)):>24}{share(flagged, len(altered)):>24}" \
           f"{not_run:>9}{edited:>8}"


def dump(misses: list[dict[str, Any]], path: Path) -> None:
    path.write_text(json.dumps(misses, indent=1, ensure_ascii=False))
