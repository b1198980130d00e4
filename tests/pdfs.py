"""Tiny hand-built PDFs for tests: one with a text layer, one with none (like a scan)."""

from __future__ import annotations


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(lines: list[str], title: str = "Test document") -> bytes:
    """A one-page PDF whose text layer holds ``lines`` (Helvetica, one line each)."""
    return make_pdf_pages([lines], title)


def make_pdf_pages(pages: list[list[str]], title: str = "Test document") -> bytes:
    """A PDF with one page per entry of ``pages``, each holding its lines as text (an empty
    list is a page with a filled rectangle and no text at all, like a scan)."""
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "",  # the page tree, once the pages' numbers are known
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Title ({_escape(title)}) >>",
    ]
    kids = []
    for lines in pages:
        if lines:
            shown = "".join(f"({_escape(line)}) Tj T*\n" for line in lines)
            content = f"BT /F1 12 Tf 72 740 Td 16 TL\n{shown}ET\n"
        else:
            content = "0 0 1 rg 72 600 200 100 re f\n"
        page_number = len(objects) + 1
        kids.append(f"{page_number} 0 R")
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents "
                       f"{page_number + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>")
        objects.append(f"<< /Length {len(content)} >>\nstream\n{content}endstream")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    return _assemble(objects, "/Info 4 0 R")


def make_shared_stream_pdf(pages: int, line: str = "one page of many") -> bytes:
    """A PDF of ``pages`` pages that all show one content stream: a few bytes a page, the
    shape of the 60,000-page PDF of issue 20."""
    content = f"BT /F1 12 Tf 72 740 Td ({_escape(line)}) Tj ET\n"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{' '.join(f'{5 + i} 0 R' for i in range(pages))}] "
        f"/Count {pages} >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Length {len(content)} >>\nstream\n{content}endstream",
    ]
    objects += ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                "/Resources << /Font << /F1 3 0 R >> >> >>"] * pages
    return _assemble(objects)


def _assemble(objects: list[str], trailer: str = "") -> bytes:
    """The PDF file of ``objects`` (numbered from 1), with its cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{off:010d} 00000 n \n".encode() for off in offsets)
    extra = f" {trailer}" if trailer else ""
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R{extra} >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)
