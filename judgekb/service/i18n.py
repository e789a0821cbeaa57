"""UI labels in English, Thai and Malay, and which of them a request gets.

The language is the judge's choice (``?lang=``, then remembered in a cookie), else the first
of ours their browser asks for (``Accept-Language``), else English. Only the interface is
translated: rule text is always shown as the rulebook prints it, marked with its own ``lang``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Literal, get_args

from starlette.requests import Request

UiLang = Literal["en", "th", "ms"]
LANGS: tuple[str, ...] = get_args(UiLang)
DEFAULT_LANG = "en"
COOKIE = "lang"
# Each language named in its own script, as a judge looks for it.
LANG_NAMES = {"en": "English", "th": "ไทย", "ms": "Bahasa Melayu"}

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Judge rules search",
        "search": "Search",
        "placeholder": "Ask, or 602.1.4",
        "all_games": "All games",
        "all_games_short": "All",
        "game": "Game",
        "help": (
            "Ask in Thai, Malay or English, or type a clause number to open it. "
            "Every result is cited with game, document, version and clause."
        ),
        "contents": "Table of contents",
        "results_for": "Results for",
        "n_clauses": "{n} clauses",
        "which_game": "This question reads like several games. Which game are you judging?",
        "no_results": "No clause matches this query.",
        "refers_to": "Refers to",
        "referred_by": "Referred to by",
        "amended": "Amended",
        "amendment": "Amendment",
        "superseded": "Superseded by",
        "superseded_by": "Superseded by",
        "earlier_wording": "Earlier wording:",
        "probable": "probable",
        # the answer card (issue 12)
        "answer": "Answer",
        "answer_sentence": "answers the question",
        "in_context": "Where it stands",
        "relation_parent": "Under",
        "relation_child": "Sub-clause",
        "relation_sibling": "Same list",
        "cited_text": "What it cites",
        "cited_by_label": "Cited by",
        "definitions": "Terms it uses",
        "versions": "Other wording",
        "relation_earlier": "Earlier wording",
        "relation_superseded_by": "Superseded by",
        "relation_earlier_edition": "Earlier edition",
        "relation_later_edition": "Later edition",
        "known_problems": "Known problems in the book",
        "crumbs": "Where this rule sits in the book",
        "citation_label": "Citation",
        "copy_cite_text": "Copy citation and text",
        "permalink_label": "Permalink",
        "other_candidates": "Other candidates",
        "top_three": "The three closest clauses",
        "clause_word": "§",
        "date_not_printed": "date not printed",
        "citation_read_as": "read as",
        "edition_not_printed": "edition not printed",
        "misplaced_here": "Printed here, but probably belongs to {home}:",
        "alias_resolved": "§{asked} is not printed in the book; it is the probable intended number of §{printed}, shown here.",
        "closest_anyway": "Show the closest clauses anyway",
        "footer_rulings": "Rulings",
        "footer_sign_in": "Sign in",
        "footer_account": "Your rulings work",
        "best_match": "Best match",
        "possible_matches": "Possible matches: check the clause before you rule.",
        "no_clear_match": "No clear match.",
        "rephrase_hint": (
            "Try the words the rulebook uses, name the game, or type a clause number "
            "(e.g. 602.1.4)."
        ),
        "rephrase_hint_in_game": "Try the words the rulebook uses, or type one of its clause "
        "numbers.",
        "filter_game": "Game",
        "remove_filter": "Search all games",
        "names_other_game": "Your question names another game than the one chosen; search it there:",
        "ambiguous_number": "This clause number exists in several games. Choose one:",
        "not_in_game": "This clause number is not in the chosen game. It is in:",
        "no_such_number": "No rulebook prints this clause number. The nearest ones:",
        "searched_in_named": "Searched in the game the question names:",
        "searched_in_terms": "Searched in the game whose rulebook uses these words:",
        "searched_in_language": "Searched in the rulebook in the question's language:",
        "doc_amended": "Document amended by",
        "doc_earlier_wording": "Earlier wording in",
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
        "edition": "Edition",
        "in_force": "in force",
        "not_yet_in_force": "not yet in force; effective",
        "superseded_edition": "Superseded edition",
        "now_numbered": "In the edition in force this clause is",
        "renumbered_from": "Renumbered: this clause was",
        "removed_in": "Removed in",
        "not_in_force_edition": "The edition in force no longer prints this clause",
        "no_edition_on": "No edition judgekb holds was in force on {day}. This is {version}, in force from {date}.",
        "later_edition": "A later edition exists:",
        "history": "History",
        "what_changed": "What changed",
        "added": "Added",
        "removed": "Removed",
        "changed": "Changed",
        "moved": "Renumbered",
        "unchanged": "Unchanged",
        "summary_by_chapter": "Summary by chapter",
        "rules_on": "Rules in force on",
        "chapter": "Chapter",
        "skip": "Skip to content",
        "language": "Language",
        "menu_search": "Search the rules",
        "recent": "Recent searches",
        "saved": "Saved clauses",
        "save": "Save",
        "saved_done": "Saved",
        "unsaved_done": "Removed from saved clauses",
        "share": "Share",
        "clear": "Clear",
        "offline_title": "Offline",
        "offline_download": "Download rules for offline",
        "offline_size": "download size",
        "offline_downloading": "Downloading the rules…",
        "offline_ready": "Rules saved on this device for offline use",
        "offline_outdated": "The rules changed since your offline copy: update it.",
        "offline_failed": "Download failed: try again when you have a connection.",
        "offline_unsupported": "This browser cannot keep the rules offline.",
        "offline_edition": "Edition",
        "offline_date": "built",
        "offline_mode": "You are offline: this is the copy of the rules saved on this device.",
        "offline_keywords": (
            "Offline: keyword search only. Search by meaning needs the network; "
            "use the words the rulebook uses, or a clause number."
        ),
        "offline_loading": "Opening the offline copy…",
        "offline_none": (
            "There is no offline copy of the rules on this device yet. "
            "Connect to the network and open judgekb once."
        ),
        "offline_missing": "This page is not part of the offline copy.",
        "offline_no_date": "The offline copy holds the rules as saved: a date or edition asked for is not applied offline.",
        "err_query": "This search cannot be run. Type a question or a clause number.",
        "err_too_long": "This search is too long (the limit is {limit} characters). Shorten it and try again.",
        "err_busy": "The service is busy. Try again in a few seconds.",
        "err_unknown_game": "There is no such game. Choose one of these:",
        "err_unknown_doc": "This game has no such document. Try one of these:",
        "err_no_clause": "This clause number is not in the rulebook.",
        "err_invalid": "A value in the address is not valid.",
        "err_not_found": "There is no page at this address.",
        "err_internal": "Something went wrong on the server. Try again in a moment.",
        "err_generic": "This request could not be completed.",
        "err_detail": "Details",
    },
    "th": {
        "title": "ค้นหากฎสำหรับกรรมการ",
        "search": "ค้นหา",
        "placeholder": "ถาม หรือ 602.1.4",
        "all_games": "ทุกเกม",
        "all_games_short": "ทุกเกม",
        "game": "เกม",
        "help": (
            "ถามเป็นภาษาไทย มลายู หรืออังกฤษ หรือพิมพ์เลขข้อเพื่อเปิดข้อนั้น ทุกผลลัพธ์อ้างอิงเกม เอกสาร ฉบับ และเลขข้อ"
        ),
        "contents": "สารบัญ",
        "results_for": "ผลการค้นหา",
        "n_clauses": "{n} ข้อ",
        "which_game": "คำถามนี้ตรงกับหลายเกม กำลังตัดสินเกมไหนอยู่?",
        "no_results": "ไม่พบข้อที่ตรงกับคำค้นนี้",
        "refers_to": "อ้างถึง",
        "referred_by": "ถูกอ้างถึงโดย",
        "amended": "มีการแก้ไข",
        "amendment": "ประกาศแก้ไข",
        "superseded": "ถูกแทนที่โดย",
        "superseded_by": "ถูกแทนที่โดย",
        "earlier_wording": "ถ้อยคำเดิม:",
        "probable": "น่าจะตรงกัน",
        # the answer card (issue 12)
        "answer": "คำตอบ",
        "answer_sentence": "ตอบคำถามนี้",
        "in_context": "ตำแหน่งในกฎ",
        "relation_parent": "อยู่ใต้",
        "relation_child": "ข้อย่อย",
        "relation_sibling": "รายการเดียวกัน",
        "cited_text": "ข้อที่อ้างถึง",
        "cited_by_label": "ถูกอ้างถึงโดย",
        "definitions": "ศัพท์ที่ใช้",
        "versions": "ถ้อยคำฉบับอื่น",
        "relation_earlier": "ถ้อยคำเดิม",
        "relation_superseded_by": "ถูกแทนที่โดย",
        "relation_earlier_edition": "ฉบับก่อนหน้า",
        "relation_later_edition": "ฉบับถัดไป",
        "known_problems": "ปัญหาที่พบในตัวกฎ",
        "crumbs": "ตำแหน่งของข้อนี้ในกฎ",
        "citation_label": "การอ้างอิง",
        "copy_cite_text": "คัดลอกการอ้างอิงพร้อมข้อความ",
        "permalink_label": "ลิงก์ถาวร",
        "other_candidates": "ข้ออื่นที่อาจเกี่ยวข้อง",
        "top_three": "สามข้อที่ใกล้เคียงที่สุด",
        "clause_word": "ข้อ ",
        "date_not_printed": "ไม่ได้ระบุวันที่",
        "citation_read_as": "อ่านเป็น",
        "edition_not_printed": "ไม่ได้ระบุฉบับ",
        "misplaced_here": "พิมพ์ไว้ตรงนี้ แต่น่าจะเป็นของ {home}:",
        "alias_resolved": "ในกฎไม่มีข้อ {asked} พิมพ์ไว้ ข้อนี้น่าจะเป็นเลขที่ตั้งใจของข้อ {printed} ซึ่งแสดงไว้ที่นี่",
        "closest_anyway": "แสดงข้อที่ใกล้เคียงที่สุด",
        "footer_rulings": "คำวินิจฉัย",
        "footer_sign_in": "เข้าสู่ระบบ",
        "footer_account": "งานคำวินิจฉัยของคุณ",
        "best_match": "ข้อที่ตรงที่สุด",
        "possible_matches": "ข้อที่อาจเกี่ยวข้อง: โปรดตรวจสอบข้อกฎก่อนตัดสิน",
        "no_clear_match": "ไม่พบข้อที่ตรงชัดเจน",
        "rephrase_hint": "ลองใช้คำที่กฎใช้ ระบุชื่อเกม หรือพิมพ์เลขข้อ (เช่น 602.1.4)",
        "rephrase_hint_in_game": "ลองใช้คำที่กฎใช้ หรือพิมพ์เลขข้อของกฎเล่มนี้",
        "filter_game": "เกม",
        "remove_filter": "ค้นหาทุกเกม",
        "names_other_game": "คำถามนี้ระบุเกมอื่นที่ไม่ใช่เกมที่เลือกไว้ ค้นหาในเกมนั้น:",
        "ambiguous_number": "เลขข้อนี้มีอยู่ในหลายเกม โปรดเลือก:",
        "not_in_game": "เกมที่เลือกไม่มีเลขข้อนี้ แต่มีใน:",
        "no_such_number": "ไม่มีกฎฉบับใดมีเลขข้อนี้ เลขข้อที่ใกล้เคียง:",
        "searched_in_named": "ค้นหาในเกมที่คำถามระบุ:",
        "searched_in_terms": "ค้นหาในเกมที่กฎใช้คำเหล่านี้:",
        "searched_in_language": "ค้นหาในกฎที่เป็นภาษาเดียวกับคำถาม:",
        "doc_amended": "เอกสารถูกแก้ไขโดย",
        "doc_earlier_wording": "ถ้อยคำเดิมอยู่ใน",
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
        "edition": "ฉบับ",
        "in_force": "มีผลบังคับใช้",
        "not_yet_in_force": "ยังไม่มีผลบังคับใช้ เริ่มใช้",
        "superseded_edition": "ฉบับที่ถูกแทนที่แล้ว",
        "now_numbered": "ในฉบับที่มีผลบังคับใช้ ข้อนี้คือ",
        "renumbered_from": "เปลี่ยนเลขข้อ: เดิมคือ",
        "removed_in": "ถูกลบในฉบับ",
        "not_in_force_edition": "ฉบับที่ใช้อยู่ไม่มีข้อนี้แล้ว",
        "no_edition_on": "judgekb ไม่มีฉบับที่มีผลในวันที่ {day} ข้อความนี้มาจาก {version} ซึ่งมีผลตั้งแต่ {date}",
        "later_edition": "มีฉบับใหม่กว่า:",
        "history": "ประวัติการแก้ไข",
        "what_changed": "สิ่งที่เปลี่ยนแปลง",
        "added": "เพิ่ม",
        "removed": "ลบ",
        "changed": "แก้ไข",
        "moved": "เปลี่ยนเลขข้อ",
        "unchanged": "ไม่เปลี่ยนแปลง",
        "summary_by_chapter": "สรุปตามบท",
        "rules_on": "กฎที่มีผลบังคับใช้ ณ วันที่",
        "chapter": "บท",
        "skip": "ข้ามไปยังเนื้อหา",
        "language": "ภาษา",
        "menu_search": "ค้นหากฎ",
        "recent": "การค้นหาล่าสุด",
        "saved": "ข้อที่บันทึกไว้",
        "save": "บันทึก",
        "saved_done": "บันทึกแล้ว",
        "unsaved_done": "เอาออกจากข้อที่บันทึกไว้แล้ว",
        "share": "แชร์",
        "clear": "ล้าง",
        "offline_title": "ออฟไลน์",
        "offline_download": "ดาวน์โหลดกฎไว้ใช้แบบออฟไลน์",
        "offline_size": "ขนาดดาวน์โหลด",
        "offline_downloading": "กำลังดาวน์โหลดกฎ…",
        "offline_ready": "บันทึกกฎไว้ในเครื่องนี้สำหรับใช้แบบออฟไลน์แล้ว",
        "offline_outdated": "กฎมีการเปลี่ยนแปลงหลังจากสำเนาออฟไลน์ของคุณ โปรดอัปเดต",
        "offline_failed": "ดาวน์โหลดไม่สำเร็จ โปรดลองอีกครั้งเมื่อเชื่อมต่อเครือข่ายได้",
        "offline_unsupported": "เบราว์เซอร์นี้เก็บกฎไว้ใช้แบบออฟไลน์ไม่ได้",
        "offline_edition": "ฉบับ",
        "offline_date": "สร้างเมื่อ",
        "offline_mode": "คุณออฟไลน์อยู่ นี่คือสำเนากฎที่บันทึกไว้ในเครื่องนี้",
        "offline_keywords": (
            "ออฟไลน์: ค้นหาได้ด้วยคำสำคัญเท่านั้น การค้นหาตามความหมายต้องใช้เครือข่าย ลองใช้คำที่กฎใช้ หรือเลขข้อ"
        ),
        "offline_loading": "กำลังเปิดสำเนาออฟไลน์…",
        "offline_none": ("เครื่องนี้ยังไม่มีสำเนากฎแบบออฟไลน์ โปรดเชื่อมต่อเครือข่ายแล้วเปิด judgekb หนึ่งครั้ง"),
        "offline_missing": "หน้านี้ไม่อยู่ในสำเนาออฟไลน์",
        "offline_no_date": "สำเนาออฟไลน์มีเฉพาะกฎตามที่บันทึกไว้ วันที่หรือฉบับที่ระบุจะไม่ถูกใช้ขณะออฟไลน์",
        "err_query": "ค้นหาด้วยข้อความนี้ไม่ได้ โปรดพิมพ์คำถามหรือเลขข้อ",
        "err_too_long": "ข้อความค้นหายาวเกินไป (ไม่เกิน {limit} ตัวอักษร) โปรดพิมพ์ให้สั้นลงแล้วลองอีกครั้ง",
        "err_busy": "ขณะนี้มีผู้ค้นหาจำนวนมาก โปรดลองอีกครั้งในไม่กี่วินาที",
        "err_unknown_game": "ไม่มีเกมนี้ โปรดเลือกจากรายการนี้:",
        "err_unknown_doc": "เกมนี้ไม่มีเอกสารนี้ ลองเลือกจากรายการนี้:",
        "err_no_clause": "ไม่มีเลขข้อนี้ในกฎ",
        "err_invalid": "ค่าบางอย่างในที่อยู่หน้าเว็บไม่ถูกต้อง",
        "err_not_found": "ไม่มีหน้าที่ที่อยู่นี้",
        "err_internal": "เซิร์ฟเวอร์ขัดข้อง โปรดลองอีกครั้งในอีกสักครู่",
        "err_generic": "ดำเนินการตามคำขอนี้ไม่ได้",
        "err_detail": "รายละเอียด",
    },
    "ms": {
        "title": "Carian peraturan hakim",
        "search": "Cari",
        "placeholder": "Soalan atau 13.1",
        "all_games": "Semua permainan",
        "all_games_short": "Semua",
        "game": "Permainan",
        "help": (
            "Tanya dalam bahasa Thai, Melayu atau Inggeris, atau taip nombor fasal untuk "
            "membukanya. Setiap hasil dipetik dengan permainan, dokumen, versi dan fasal."
        ),
        "contents": "Isi kandungan",
        "results_for": "Hasil untuk",
        "n_clauses": "{n} peraturan",
        "which_game": "Soalan ini sesuai dengan beberapa permainan. Permainan mana yang anda adili?",
        "no_results": "Tiada fasal sepadan dengan carian ini.",
        "refers_to": "Merujuk kepada",
        "referred_by": "Dirujuk oleh",
        "amended": "Dipinda",
        "amendment": "Pindaan",
        "superseded": "Digantikan oleh",
        "superseded_by": "Digantikan oleh",
        "earlier_wording": "Susunan kata terdahulu:",
        "probable": "mungkin",
        # the answer card (issue 12)
        "answer": "Jawapan",
        "answer_sentence": "menjawab soalan",
        "in_context": "Kedudukannya",
        "relation_parent": "Di bawah",
        "relation_child": "Subperaturan",
        "relation_sibling": "Senarai yang sama",
        "cited_text": "Yang dirujuknya",
        "cited_by_label": "Dirujuk oleh",
        "definitions": "Istilah yang digunakan",
        "versions": "Susunan kata lain",
        "relation_earlier": "Susunan kata terdahulu",
        "relation_superseded_by": "Digantikan oleh",
        "relation_earlier_edition": "Edisi terdahulu",
        "relation_later_edition": "Edisi kemudian",
        "known_problems": "Masalah yang diketahui dalam buku",
        "crumbs": "Kedudukan peraturan ini dalam buku",
        "citation_label": "Petikan",
        "copy_cite_text": "Salin petikan dan teks",
        "permalink_label": "Pautan kekal",
        "other_candidates": "Calon lain",
        "top_three": "Tiga peraturan terdekat",
        "clause_word": "§",
        "date_not_printed": "tarikh tidak dicetak",
        "citation_read_as": "baca sebagai",
        "edition_not_printed": "edisi tidak dicetak",
        "misplaced_here": "Dicetak di sini, tetapi mungkin milik {home}:",
        "alias_resolved": "§{asked} tidak dicetak dalam buku; ia mungkin nombor yang dimaksudkan bagi §{printed}, yang ditunjukkan di sini.",
        "closest_anyway": "Tunjukkan juga peraturan yang paling hampir",
        "footer_rulings": "Keputusan",
        "footer_sign_in": "Log masuk",
        "footer_account": "Kerja keputusan anda",
        "best_match": "Padanan terbaik",
        "possible_matches": "Padanan yang mungkin: semak peraturan sebelum membuat keputusan.",
        "no_clear_match": "Tiada padanan yang jelas.",
        "rephrase_hint": (
            "Cuba perkataan yang digunakan oleh buku peraturan, namakan permainan, atau taip "
            "nombor peraturan (cth. 602.1.4)."
        ),
        "rephrase_hint_in_game": "Cuba perkataan yang digunakan oleh buku peraturan, atau "
        "taip nombor peraturannya.",
        "filter_game": "Permainan",
        "remove_filter": "Cari semua permainan",
        "names_other_game": "Soalan anda menyebut permainan lain daripada yang dipilih; cari di sana:",
        "ambiguous_number": "Nombor peraturan ini wujud dalam beberapa permainan. Pilih satu:",
        "not_in_game": "Nombor peraturan ini tiada dalam permainan yang dipilih. Ia ada dalam:",
        "no_such_number": "Tiada buku peraturan yang mencetak nombor ini. Yang terdekat:",
        "searched_in_named": "Dicari dalam permainan yang dinamakan oleh soalan:",
        "searched_in_terms": "Dicari dalam permainan yang buku peraturannya menggunakan perkataan ini:",
        "searched_in_language": "Dicari dalam buku peraturan dalam bahasa soalan:",
        "doc_amended": "Dokumen dipinda oleh",
        "doc_earlier_wording": "Susunan kata terdahulu dalam",
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
        "edition": "Edisi",
        "in_force": "berkuat kuasa",
        "not_yet_in_force": "belum berkuat kuasa; mula",
        "superseded_edition": "Edisi yang telah digantikan",
        "now_numbered": "Dalam edisi yang berkuat kuasa, peraturan ini ialah",
        "renumbered_from": "Nombor diubah: dahulu",
        "removed_in": "Dibuang dalam",
        "not_in_force_edition": "Edisi yang berkuat kuasa tidak lagi mencetak fasal ini",
        "no_edition_on": "Tiada edisi dalam judgekb yang berkuat kuasa pada {day}. Ini {version}, berkuat kuasa mulai {date}.",
        "later_edition": "Ada edisi yang lebih baharu:",
        "history": "Sejarah",
        "what_changed": "Apa yang berubah",
        "added": "Ditambah",
        "removed": "Dibuang",
        "changed": "Diubah",
        "moved": "Nombor diubah",
        "unchanged": "Tidak berubah",
        "summary_by_chapter": "Ringkasan mengikut bahagian",
        "rules_on": "Peraturan yang berkuat kuasa pada",
        "chapter": "Bahagian",
        "skip": "Langkau ke kandungan",
        "language": "Bahasa",
        "menu_search": "Cari peraturan",
        "recent": "Carian terkini",
        "saved": "Fasal yang disimpan",
        "save": "Simpan",
        "saved_done": "Disimpan",
        "unsaved_done": "Dibuang daripada fasal yang disimpan",
        "share": "Kongsi",
        "clear": "Kosongkan",
        "offline_title": "Luar talian",
        "offline_download": "Muat turun peraturan untuk luar talian",
        "offline_size": "saiz muat turun",
        "offline_downloading": "Memuat turun peraturan…",
        "offline_ready": "Peraturan disimpan pada peranti ini untuk kegunaan luar talian",
        "offline_outdated": "Peraturan telah berubah sejak salinan luar talian anda: kemas kini.",
        "offline_failed": "Muat turun gagal: cuba lagi apabila ada sambungan.",
        "offline_unsupported": "Pelayar ini tidak dapat menyimpan peraturan untuk luar talian.",
        "offline_edition": "Edisi",
        "offline_date": "dibina",
        "offline_mode": "Anda di luar talian: ini salinan peraturan yang disimpan pada peranti ini.",
        "offline_keywords": (
            "Luar talian: carian kata kunci sahaja. Carian mengikut makna memerlukan rangkaian; "
            "gunakan perkataan buku peraturan, atau nombor fasal."
        ),
        "offline_loading": "Membuka salinan luar talian…",
        "offline_none": (
            "Belum ada salinan luar talian pada peranti ini. "
            "Sambung ke rangkaian dan buka judgekb sekali."
        ),
        "offline_missing": "Halaman ini tiada dalam salinan luar talian.",
        "offline_no_date": "Salinan luar talian memegang peraturan seperti yang disimpan: tarikh atau edisi yang diminta tidak digunakan semasa luar talian.",
        "err_query": "Carian ini tidak dapat dijalankan. Taip soalan atau nombor fasal.",
        "err_too_long": "Carian ini terlalu panjang (had {limit} aksara). Pendekkan dan cuba lagi.",
        "err_busy": "Perkhidmatan sedang sibuk. Cuba lagi dalam beberapa saat.",
        "err_unknown_game": "Permainan ini tiada. Pilih salah satu daripada ini:",
        "err_unknown_doc": "Permainan ini tiada dokumen tersebut. Cuba salah satu daripada ini:",
        "err_no_clause": "Nombor fasal ini tiada dalam buku peraturan.",
        "err_invalid": "Satu nilai dalam alamat tidak sah.",
        "err_not_found": "Tiada halaman di alamat ini.",
        "err_internal": "Berlaku masalah pada pelayan. Cuba lagi sebentar lagi.",
        "err_generic": "Permintaan ini tidak dapat diselesaikan.",
        "err_detail": "Butiran",
    },
}


# Lint findings said in the judge's language: code -> sentence with the finding's params
# (judgekb.corpus.model.LintFinding.params); a code without a sentence shows the English.
NOTES: dict[str, dict[str, str]] = {
    "en": {
        "misprint": "The book prints this number for what is probably §{intended}: read it as "
        "§{intended}.",
        "ref-title-mismatch": "This clause cites {cited} ({cited_title}), but its words name "
        "{named} ({named_title}): probably a misprint; check both.",
        "missing-ref": "This clause cites {cited}, which the book does not print.",
        "out-of-order": "The book prints {span} away from its numeric place.",
        "truncated": "One rendering of the book cuts this clause short; the text shown was "
        "repaired from the other rendering.",
        "rendering-missing": "One rendering of the book lacks this clause; the text shown was "
        "repaired from the other rendering.",
        "duplicate": "The book prints this number twice; the first printing is shown.",
        "changelog-unconfirmed": "The book's changelog names this clause, but no change "
        "between the editions confirms it.",
        "changelog-removed-printed": "The book's changelog for {version} says “{entry}”, yet "
        "the book still prints this number: either the next clause was renumbered into its "
        "place (then this text is current) or the removal was not made. The book cannot tell "
        "which; the head judge decides whether it applies.",
        "misplaced-text": "The book prints text under this clause that probably belongs to "
        "{home_named}: “{start}…”. It is shown as printed; do not read it as part of this "
        "clause.",
        "changelog-added-missing": "The book's changelog says {version} added {cited}, but the "
        "book does not print it.",
        "repaired": "Extraction damage in this text was repaired; the original is shown with it.",
        "corrected": "The scan of the book misread words here; they were corrected from a "
        "reviewed table ({changes}), and the original is shown with it.",
        "reviewed": "{en} (A reviewer's note; the book prints the text as shown.)",
        "lost-icon": "The book prints an icon here that the text lost: read the rule with the "
        "icon printed on the card.",
    },
    "th": {
        "misprint": "ในกฎพิมพ์เลขข้อนี้ แต่น่าจะหมายถึงข้อ {intended} ให้อ่านเป็นข้อ {intended}",
        "ref-title-mismatch": "ข้อนี้อ้างถึงข้อ {cited} ({cited_title}) แต่ถ้อยคำระบุถึงข้อ "
        "{named} ({named_title}) น่าจะพิมพ์ผิด โปรดตรวจสอบทั้งสองข้อ",
        "missing-ref": "ข้อนี้อ้างถึงข้อ {cited} ซึ่งไม่มีอยู่ในกฎ",
        "out-of-order": "ในกฎพิมพ์ข้อ {span} ไว้ผิดตำแหน่งตามลำดับเลข",
        "truncated": "ข้อความของข้อนี้ในต้นฉบับหนึ่งถูกตัดขาด ข้อความที่แสดงซ่อมจากอีกต้นฉบับหนึ่ง",
        "rendering-missing": "ต้นฉบับหนึ่งไม่มีข้อนี้ ข้อความที่แสดงซ่อมจากอีกต้นฉบับหนึ่ง",
        "duplicate": "ในกฎพิมพ์เลขข้อนี้ซ้ำสองครั้ง แสดงข้อที่พิมพ์ครั้งแรก",
        "changelog-unconfirmed": "บันทึกการเปลี่ยนแปลงของกฎระบุถึงข้อนี้ แต่ไม่พบการเปลี่ยนแปลงระหว่างฉบับที่ยืนยันได้",
        "changelog-removed-printed": "บันทึกการเปลี่ยนแปลงของกฎ {version} ระบุว่า “{entry}” "
        "แต่ในกฎยังพิมพ์เลขข้อนี้อยู่ อาจเป็นข้อถัดไปที่ถูกเลื่อนเลขขึ้นมา (ข้อความนี้จึงยังใช้อยู่) "
        "หรืออาจยังไม่ได้ลบจริง ตัวกฎเองไม่ได้บอกว่าแบบไหน หัวหน้ากรรมการเป็นผู้ตัดสินว่าใช้ข้อนี้หรือไม่",
        "misplaced-text": "ในกฎพิมพ์ข้อความใต้ข้อนี้ที่น่าจะเป็นของ {home_named}: “{start}…” "
        "แสดงไว้ตามที่พิมพ์ อย่าอ่านเป็นส่วนหนึ่งของข้อนี้",
        "changelog-added-missing": "บันทึกการเปลี่ยนแปลงของกฎระบุว่า {version} เพิ่มข้อ {cited} "
        "แต่ในกฎไม่มีข้อนี้",
        "repaired": "ข้อความนี้ได้รับการซ่อมจากความเสียหายในการแปลงไฟล์ และแสดงต้นฉบับไว้ด้วย",
        "corrected": "การสแกนกฎอ่านคำตรงนี้ผิด จึงแก้ตามตารางที่ตรวจแล้ว ({changes}) และแสดงต้นฉบับไว้ด้วย",
        "reviewed": "{th} (ข้อสังเกตจากผู้ตรวจทาน ตัวกฎพิมพ์ข้อความไว้ตามที่แสดง)",
        "lost-icon": "ในกฎพิมพ์ไอคอนไว้ตรงนี้ แต่ข้อความตกหล่นไป ให้อ่านกฎนี้คู่กับไอคอนที่พิมพ์บนการ์ด",
    },
    "ms": {
        "misprint": "Buku mencetak nombor ini bagi apa yang mungkin §{intended}: bacalah "
        "sebagai §{intended}.",
        "ref-title-mismatch": "Peraturan ini merujuk {cited} ({cited_title}), tetapi "
        "perkataannya menamakan {named} ({named_title}): mungkin salah cetak; semak kedua-duanya.",
        "missing-ref": "Peraturan ini merujuk {cited}, yang tidak dicetak dalam buku.",
        "out-of-order": "Buku mencetak {span} jauh dari tempat nombornya.",
        "truncated": "Satu versi buku memotong peraturan ini; teks yang ditunjukkan dibaiki "
        "daripada versi yang lain.",
        "rendering-missing": "Satu versi buku tidak mempunyai peraturan ini; teks yang "
        "ditunjukkan dibaiki daripada versi yang lain.",
        "duplicate": "Buku mencetak nombor ini dua kali; cetakan pertama ditunjukkan.",
        "changelog-unconfirmed": "Log perubahan buku menamakan peraturan ini, tetapi tiada "
        "perubahan antara edisi yang mengesahkannya.",
        "changelog-removed-printed": "Log perubahan buku bagi {version} menyatakan “{entry}”, "
        "tetapi buku masih mencetak nombor ini: sama ada peraturan berikutnya dinomborkan "
        "semula ke tempatnya (maka teks ini masih terpakai) atau ia tidak dibuang. Buku tidak "
        "menyatakan yang mana; ketua hakim memutuskan sama ada ia terpakai.",
        "misplaced-text": "Buku mencetak teks di bawah peraturan ini yang mungkin milik "
        "{home_named}: “{start}…”. Ia ditunjukkan seperti dicetak; jangan anggap ia sebahagian "
        "daripada peraturan ini.",
        "changelog-added-missing": "Log perubahan buku mengatakan {version} menambah {cited}, "
        "tetapi buku tidak mencetaknya.",
        "repaired": "Kerosakan pengekstrakan dalam teks ini telah dibaiki; teks asal "
        "ditunjukkan bersamanya.",
        "corrected": "Imbasan buku tersalah baca perkataan di sini; ia dibetulkan daripada "
        "jadual yang disemak ({changes}), dan teks asal ditunjukkan bersamanya.",
        "reviewed": "{ms} (Catatan penyemak; buku mencetak teks seperti yang ditunjukkan.)",
        "lost-icon": "Buku mencetak ikon di sini tetapi teks ini kehilangannya: baca peraturan "
        "ini bersama ikon yang dicetak pada kad.",
    },
}


def note_text(lang: str, code: str, params: Mapping[str, str], english: str) -> str:
    """A lint finding in ``lang`` (the English ``english`` when no sentence fits)."""
    template = NOTES.get(lang, {}).get(code) or NOTES[DEFAULT_LANG].get(code)
    try:
        return template.format(**params) if template else english
    except (KeyError, IndexError):
        return english


def accepted_lang(header: str) -> str | None:
    """The first of :data:`LANGS` an ``Accept-Language`` header asks for, by q-value, then
    order ("th-TH,th;q=0.9,en;q=0.8" -> "th"; "ms-MY" -> "ms"; "de, fr" -> None)."""
    best: tuple[float, str] | None = None
    for item in header.split(","):
        tag, _, params = item.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        if primary not in LANGS:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0 and (best is None or q > best[0]):  # ties: the earlier entry wins
            best = (q, primary)
    return best[1] if best else None


def pick_lang(request: Request) -> str:
    """The UI language: a valid ``?lang=``, then the cookie, then Accept-Language, then English."""
    for value in (request.query_params.get("lang"), request.cookies.get(COOKIE)):
        if value in LANGS:
            return value
    return accepted_lang(request.headers.get("accept-language", "")) or DEFAULT_LANG


@lru_cache(maxsize=len(LANGS) + 1)
def labels(lang: str) -> Mapping[str, str]:
    """Labels for ``lang`` (read-only, built once); a missing key falls back to English."""
    return MappingProxyType({**LABELS[DEFAULT_LANG], **LABELS.get(lang, {})})
