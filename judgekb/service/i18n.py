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
        "superseded_by": "Superseded by",
        "earlier_wording": "Earlier wording:",
        "probable": "probable",
        "best_match": "Best match",
        "possible_matches": "Possible matches: check the clause before you rule.",
        "no_clear_match": "No clear match.",
        "rephrase_hint": (
            "Try the words the rulebook uses, name the game, or type a clause number "
            "(e.g. 602.1.4)."
        ),
        "filter_game": "Game",
        "remove_filter": "Search all games",
        "ambiguous_number": "This clause number exists in several games. Choose one:",
        "not_in_game": "This clause number is not in the chosen game. It is in:",
        "searched_in_named": "Searched in the game the question names:",
        "searched_in_terms": "Searched in the game whose rulebook uses these words:",
        "searched_in_language": "Searched in the rulebook in the question's language:",
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
        "superseded_by": "ถูกแทนที่โดย",
        "earlier_wording": "ถ้อยคำเดิม:",
        "probable": "น่าจะตรงกัน",
        "best_match": "ข้อที่ตรงที่สุด",
        "possible_matches": "ข้อที่อาจเกี่ยวข้อง: โปรดตรวจสอบข้อกฎก่อนตัดสิน",
        "no_clear_match": "ไม่พบข้อที่ตรงชัดเจน",
        "rephrase_hint": "ลองใช้คำที่กฎใช้ ระบุชื่อเกม หรือพิมพ์เลขข้อ (เช่น 602.1.4)",
        "filter_game": "เกม",
        "remove_filter": "ค้นหาทุกเกม",
        "ambiguous_number": "เลขข้อนี้มีอยู่ในหลายเกม โปรดเลือก:",
        "not_in_game": "เกมที่เลือกไม่มีเลขข้อนี้ แต่มีใน:",
        "searched_in_named": "ค้นหาในเกมที่คำถามระบุ:",
        "searched_in_terms": "ค้นหาในเกมที่กฎใช้คำเหล่านี้:",
        "searched_in_language": "ค้นหาในกฎที่เป็นภาษาเดียวกับคำถาม:",
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
        "superseded_by": "Digantikan oleh",
        "earlier_wording": "Susunan kata terdahulu:",
        "probable": "mungkin",
        "best_match": "Padanan terbaik",
        "possible_matches": "Padanan yang mungkin: semak peraturan sebelum membuat keputusan.",
        "no_clear_match": "Tiada padanan yang jelas.",
        "rephrase_hint": (
            "Cuba perkataan yang digunakan oleh buku peraturan, namakan permainan, atau taip "
            "nombor peraturan (cth. 602.1.4)."
        ),
        "filter_game": "Permainan",
        "remove_filter": "Cari semua permainan",
        "ambiguous_number": "Nombor peraturan ini wujud dalam beberapa permainan. Pilih satu:",
        "not_in_game": "Nombor peraturan ini tiada dalam permainan yang dipilih. Ia ada dalam:",
        "searched_in_named": "Dicari dalam permainan yang dinamakan oleh soalan:",
        "searched_in_terms": "Dicari dalam permainan yang buku peraturannya menggunakan perkataan ini:",
        "searched_in_language": "Dicari dalam buku peraturan dalam bahasa soalan:",
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
