"""UI labels in English, Thai and Malay; the language comes from ``?lang=`` or a cookie.

Only the interface is translated: rule text is always shown as the rulebook prints it.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request

LANGS = ("en", "th", "ms")
DEFAULT_LANG = "en"
COOKIE = "lang"

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Judge rules search",
        "search": "Search",
        "placeholder": "Question or clause number, e.g. 602.1.4",
        "all_games": "All games",
        "game": "Game",
        "help": (
            "Ask in Thai, Malay or English, or type a clause number to open it. "
            "Every result is cited with game, document, version and clause."
        ),
        "contents": "Table of contents",
        "results_for": "Results for",
        "no_results": "No clause matches this query.",
        "refers_to": "Refers to",
        "referred_by": "Referred to by",
        "amended": "Amended",
        "amendment": "Amendment",
        "superseded": "Superseded by",
        "doc_amended": "Document amended by",
        "repaired": "Text repaired",
        "corrected": "Text corrected",
        "original": "Show original text",
        "copy_cite": "Copy citation",
        "copied": "Copied",
        "children": "Sub-clauses",
        "previous": "Previous",
        "next": "Next",
        "other_docs": "Same number in",
        "no_counterpart": "no counterpart",
        "error": "Error",
        "did_you_mean": "Did you mean",
        "known": "Known",
        "back": "Back to search",
        "api_docs": "API",
        "unresolved": "unresolved",
        "definition": "definition",
        "effective": "effective",
        "glossary": "Glossary",
    },
    "th": {
        "title": "ค้นหากฎสำหรับกรรมการ",
        "search": "ค้นหา",
        "placeholder": "คำถามหรือเลขข้อ เช่น 602.1.4",
        "all_games": "ทุกเกม",
        "game": "เกม",
        "help": (
            "ถามเป็นภาษาไทย มลายู หรืออังกฤษ หรือพิมพ์เลขข้อเพื่อเปิดข้อนั้น ทุกผลลัพธ์อ้างอิงเกม เอกสาร ฉบับ และเลขข้อ"
        ),
        "contents": "สารบัญ",
        "results_for": "ผลการค้นหา",
        "no_results": "ไม่พบข้อที่ตรงกับคำค้นนี้",
        "refers_to": "อ้างถึง",
        "referred_by": "ถูกอ้างถึงโดย",
        "amended": "มีการแก้ไข",
        "amendment": "ประกาศแก้ไข",
        "superseded": "ถูกแทนที่โดย",
        "doc_amended": "เอกสารถูกแก้ไขโดย",
        "repaired": "ข้อความถูกซ่อมแซม",
        "corrected": "ข้อความถูกแก้คำผิด",
        "original": "แสดงข้อความต้นฉบับ",
        "copy_cite": "คัดลอกการอ้างอิง",
        "copied": "คัดลอกแล้ว",
        "children": "ข้อย่อย",
        "previous": "ก่อนหน้า",
        "next": "ถัดไป",
        "other_docs": "เลขข้อเดียวกันใน",
        "no_counterpart": "ไม่มีข้อที่ตรงกัน",
        "error": "ข้อผิดพลาด",
        "did_you_mean": "หมายถึง",
        "known": "ที่มีอยู่",
        "back": "กลับไปค้นหา",
        "api_docs": "API",
        "unresolved": "หาไม่พบ",
        "definition": "นิยาม",
        "effective": "มีผล",
        "glossary": "อภิธานศัพท์",
    },
    "ms": {
        "title": "Carian peraturan hakim",
        "search": "Cari",
        "placeholder": "Soalan atau nombor fasal, cth. 13.1",
        "all_games": "Semua permainan",
        "game": "Permainan",
        "help": (
            "Tanya dalam bahasa Thai, Melayu atau Inggeris, atau taip nombor fasal untuk "
            "membukanya. Setiap hasil dipetik dengan permainan, dokumen, versi dan fasal."
        ),
        "contents": "Isi kandungan",
        "results_for": "Hasil untuk",
        "no_results": "Tiada fasal sepadan dengan carian ini.",
        "refers_to": "Merujuk kepada",
        "referred_by": "Dirujuk oleh",
        "amended": "Dipinda",
        "amendment": "Pindaan",
        "superseded": "Digantikan oleh",
        "doc_amended": "Dokumen dipinda oleh",
        "repaired": "Teks dibaiki",
        "corrected": "Teks dibetulkan",
        "original": "Tunjukkan teks asal",
        "copy_cite": "Salin petikan",
        "copied": "Disalin",
        "children": "Subfasal",
        "previous": "Sebelum",
        "next": "Seterusnya",
        "other_docs": "Nombor sama dalam",
        "no_counterpart": "tiada padanan",
        "error": "Ralat",
        "did_you_mean": "Adakah maksud anda",
        "known": "Yang ada",
        "back": "Kembali ke carian",
        "api_docs": "API",
        "unresolved": "tidak ditemui",
        "definition": "takrif",
        "effective": "berkuat kuasa",
        "glossary": "Glosari",
    },
}


def pick_lang(request: Request) -> str:
    """The UI language: a valid ``?lang=`` wins, then the cookie, then English."""
    for value in (request.query_params.get("lang"), request.cookies.get(COOKIE)):
        if value in LANGS:
            return value
    return DEFAULT_LANG


def labels(lang: str) -> Mapping[str, str]:
    """Labels for ``lang``; a missing key falls back to English."""
    return {**LABELS[DEFAULT_LANG], **LABELS.get(lang, {})}
