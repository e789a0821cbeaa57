// judgekb offline rules: the clause tree, clause-number lookup and keyword search over the
// offline bundle (judgekb/service/offline.py), with no network. Mirrors the server:
//   normalize()  judgekb/corpus/normalize.py (same six rules, same order)
//   mentions()   judgekb/index/query.py find_mentions (its regex comes in the bundle)
//   lookup()     judgekb/index/plan.py _mention_rows / _resolve_lookups
//   search()     BM25 (k1, b of the index manifest) over heading + text, the query expanded
//                with the bundle's English/Malay lexicon and Thai synonyms, as the server's BM25,
//                and over the judges' questions each clause answers (the server's question
//                view compares them by meaning; the phone has no model, so it reads their words)
// Words are cut by the browser's Intl.Segmenter (ICU's Thai dictionary), the same way for the
// clauses and for the query; the index is MiniSearch (static/vendor/minisearch.js).
(function (root) {
  "use strict";

  var THAI_DIGIT = /[\u0e50-\u0e59]/g;
  var THAI = /[\u0e01-\u0e4e]/;
  var WORD_CHAR = /[A-Za-z0-9_\u00c0-\u024f\u0e00-\u0e7f]/;
  var WARM_CHUNK = 50;  // clauses indexed per step of warm()

  function normalize(s) {
    s = s.replace(/[\u200b\u200c\u200d\u2060\ufeff]/g, "");                   // 1 zero width
    s = s.normalize("NFC");                                                     // 2 NFC
    s = s.replace(/\u0e4d([\u0e48-\u0e4b]?)\u0e32/g, "$1\u0e33");              // 3 SARA AM
    s = s.replace(/([\u0e31\u0e34-\u0e3a\u0e47-\u0e4e])\1+/g, "$1");           // 4 doubled marks
    s = s.replace(THAI_DIGIT, function (d) { return String(d.charCodeAt(0) - 0x0e50); });  // 5
    return s.replace(/\s+/g, function (m) { return m.indexOf("\n") >= 0 ? "\n" : " "; }).trim();  // 6
  }

  function preview(text, n) {
    text = text.split(/\s+/).join(" ").trim();
    if (text.length <= n) { return text; }
    var cut = text.lastIndexOf(" ", n - 1);
    return text.slice(0, cut >= n - 40 && cut > 0 ? cut : n) + "…";
  }

  var segmenter = typeof Intl !== "undefined" && Intl.Segmenter ?
    new Intl.Segmenter("th", { granularity: "word" }) : null;

  function words(text) {
    var out = [];
    text = normalize(text).toLowerCase();
    if (segmenter) {
      var it = segmenter.segment(text)[Symbol.iterator](), step;
      while (!(step = it.next()).done) {
        if (step.value.isWordLike) { out.push(step.value.segment); }
      }
      return out;
    }
    return text.split(/[^\w\u0e00-\u0e7f]+/).filter(Boolean);  // no Intl.Segmenter: spaces only
  }

  function Rules(bundle, MiniSearch) {
    var self = this;
    this.bundle = bundle;
    this.MiniSearch = MiniSearch;
    this.q = bundle.query;
    this.stop = new Set(bundle.query.stop);
    this.games = {};
    bundle.games.forEach(function (g) { self.games[g[0]] = g[1]; });
    this.docs = bundle.docs.map(function (d) {
      return { id: d[0], game: d[1], title: d[2], lang: d[3], version: d[4], date: d[5],
               kind: d[6], amends: d[7], cite: d[8] };
    });
    this.primary = {};
    this.docs.forEach(function (d) { if (d.kind === "rules" && !self.primary[d.game]) { self.primary[d.game] = d.id; } });
    this.docs.forEach(function (d) { if (!self.primary[d.game]) { self.primary[d.game] = d.id; } });
    this.docIndex = {};
    this.docs.forEach(function (d, i) { self.docIndex[d.id] = i; });
    this.c = bundle.clauses;
    this.row = {};
    this.kids = {};
    this.c.forEach(function (c, i) {
      var doc = self.docs[c[0]].id;
      self.row[doc + "\u0000" + c[1]] = i;
      var key = doc + "\u0000" + (c[2] === null ? "" : c[2]);
      (self.kids[key] = self.kids[key] || []).push(i);
    });
    this.out = {}; this.into = {};
    bundle.refs.forEach(function (r) {
      (self.out[r[0]] = self.out[r[0]] || []).push(r);
      if (r[1] >= 0) { (self.into[r[1]] = self.into[r[1]] || []).push(r); }
    });
    this.amend = {};
    bundle.amendments.forEach(function (a) {
      (self.amend[a[0]] = self.amend[a[0]] || []).push(a);
      if (a[1] >= 0) { (self.amend[a[1]] = self.amend[a[1]] || []).push(a); }
    });
    this.alias = {};
    this.c.forEach(function (c, i) {
      var names = (bundle.aliases[i] || []).concat(c[3] === "glossary" ? [c[4]] : []);
      names.forEach(function (n) {
        var key = n.trim().toLowerCase();
        (self.alias[key] = self.alias[key] || []).push(i);
      });
    });
    this.index = null;
  }

  // One clause ------------------------------------------------------------------------------
  Rules.prototype.doc = function (i) { return this.docs[this.c[i][0]]; };
  Rules.prototype.game = function (i) { return this.doc(i).game; };
  Rules.prototype.id = function (i) { return this.c[i][1]; };
  Rules.prototype.kind = function (i) { return this.c[i][3]; };
  Rules.prototype.title = function (i) { return this.c[i][4]; };
  Rules.prototype.text = function (i) { return this.c[i][5]; };
  Rules.prototype.raw = function (i) { return this.bundle.raw[i]; };
  // The book's known problems with clause i (lint findings, reviewed errata) in the page's
  // language, as the server's clause page says them; English when the language has none.
  Rules.prototype.notes = function (i, lang) {
    var all = this.bundle.notes || {}, byLang = all[lang] || all.en || {};
    return byLang[i] || [];
  };
  Rules.prototype.get = function (docId, clauseId) {
    var i = this.row[docId + "\u0000" + clauseId];
    return i === undefined ? -1 : i;
  };

  // The permalink, as judgekb/index/hits.py clause_url writes it.
  Rules.prototype.url = function (i) {
    var d = this.doc(i);
    var path = "/rules/" + encodeURIComponent(d.game) + "/" +
      encodeURIComponent(this.id(i)).replace(/%2F/gi, "/");
    return d.id === this.primary[d.game] ? path : path + "?doc=" + encodeURIComponent(d.id);
  };

  // How a clause is named in lists (judgekb/service/views.py node_label).
  Rules.prototype.label = function (i, withText) {
    var id = this.id(i), title = this.title(i);
    if (this.kind(i) === "glossary" || id.indexOf("/") >= 0 || title.toLowerCase() === id.toLowerCase()) { return title || id; }  // an internal id is never shown
    return (id + " " + (title || (withText ? preview(this.text(i), 70) : ""))).trim();
  };

  Rules.prototype.citation = function (i) {
    var id = this.id(i);  // an internal id (glossary/…, topic/1) by its section's name
    return this.doc(i).cite + (id.indexOf("/") >= 0 ? this.title(i) || id : id);
  };

  Rules.prototype.parent = function (i) {
    var p = this.c[i][2];
    return p === null ? -1 : this.get(this.doc(i).id, p);
  };

  Rules.prototype.parents = function (i) {
    var chain = [], p = this.parent(i);
    while (p >= 0 && chain.length < 20) { chain.unshift(p); p = this.parent(p); }
    return chain;
  };

  Rules.prototype.children = function (docId, clauseId) {
    return this.kids[docId + "\u0000" + (clauseId === null ? "" : clauseId)] || [];
  };

  Rules.prototype.siblings = function (i) {
    var sibs = this.children(this.doc(i).id, this.c[i][2]), at = sibs.indexOf(i);
    return [at > 0 ? sibs[at - 1] : -1, at >= 0 && at + 1 < sibs.length ? sibs[at + 1] : -1];
  };

  Rules.prototype.refsOut = function (i) { return this.out[i] || []; };
  Rules.prototype.refsIn = function (i) { return this.into[i] || []; };
  Rules.prototype.amendments = function (i) { return this.amend[i] || []; };

  // A clause of ``game`` by id: rules documents before amendments unless ``docId`` is given.
  Rules.prototype.find = function (game, clauseId, docId) {
    var docs = this.docs.filter(function (d) { return d.game === game && (!docId || d.id === docId); });
    docs.sort(function (a, b) { return (a.kind !== "rules") - (b.kind !== "rules"); });
    for (var n = 0; n < docs.length; n++) {
      var i = this.get(docs[n].id, clauseId);
      if (i >= 0) { return i; }
    }
    // a misprinted number's intended form ("7.35.1" for the printed 7.46.1), as the server
    var self = this, named = (this.alias[clauseId.trim().toLowerCase()] || []).filter(function (j) {
      return self.kind(j) !== "glossary";  // a term's name is not a clause number
    });
    for (n = 0; n < docs.length; n++) {
      for (var k = 0; k < named.length; k++) {
        if (this.doc(named[k]).id === docs[n].id) { return named[k]; }
      }
    }
    return -1;
  };

  // Clause numbers --------------------------------------------------------------------------
  function candidates(cid) {
    var out = [cid];
    if (cid.indexOf(".") >= 0) { out.push(cid.replace(/\./g, "-")); }
    if (cid.indexOf("-") >= 0) { out.push(cid.replace(/-/g, ".")); }
    return out;
  }

  // a query's text: normalised, dashes between digits as hyphens (query.py parse_query)
  function queryText(q) {
    return normalize(q).replace(/(\d)(?=[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]\d)./g, "$1-");
  }

  Rules.prototype.mentions = function (text) {
    var re = new RegExp(this.q.mention, "gi"), out = [], m;
    var hundreds = new RegExp("^(?:" + (this.q.hundreds || "(?!)") + ")");
    var around = new RegExp("^" + this.q.around + "|" + this.q.around + "$", "g");
    var whole = text.replace(around, "");
    while ((m = re.exec(text)) !== null) {
      if (m[0] === "") { re.lastIndex += 1; continue; }
      var g = m.groups, cid = g.id, parts = cid.split(/[.\-]/).length;
      var worded = Boolean(g.hint || g.pre);
      var alone = whole === cid || whole === m[0].replace(around, "");
      if (!(worded || alone || parts >= 3 || hundreds.test(cid))) { continue; }
      out.push({ ids: candidates(cid), start: m.index, end: m.index + m[0].length,
                 lang: g.ms ? "ms" : g.th ? "th" : null, amendment: Boolean(g.hint) });
    }
    return out;
  };

  // Rows printing a mentioned number: the clause word's language first, rulebooks before
  // amendments, only amendments when the words say "decree".
  Rules.prototype.mentionRows = function (mention) {
    var self = this;
    var docs = this.docs.map(function (d, n) { return [d, n]; });
    docs.sort(function (a, b) {
      var ka = [mention.lang !== null && a[0].lang !== mention.lang, a[0].kind !== "rules"];
      var kb = [mention.lang !== null && b[0].lang !== mention.lang, b[0].kind !== "rules"];
      return (ka[0] - kb[0]) || (ka[1] - kb[1]) || (a[1] - b[1]);
    });
    if (mention.amendment) { docs = docs.filter(function (d) { return d[0].kind === "amendment"; }); }
    var rows = [];
    mention.ids.forEach(function (cid) {
      docs.forEach(function (d) {
        var i = self.get(d[0].id, cid);
        if (i >= 0 && rows.indexOf(i) < 0) { rows.push(i); }
      });
    });
    return rows;
  };

  // index/games.py GameNames: game names in a query, abbreviations ("OP") only in capitals.
  Rules.prototype.named = function (text) {
    if (!this.nameRe) {
      var abbr = [], long = [], self = this;
      this.slugOf = {};
      Object.keys(this.q.names || {}).forEach(function (g) {
        self.q.names[g].forEach(function (n) {
          var ascii = !/[^\x00-\x7f]/.test(n), body = n.split(/\s+/).map(function (w) { return w.replace(/[.*+?^${}()|[\]\\!]/g, "\\$&"); }).join("\\s*");
          var part = ascii ? "(?<![A-Za-z0-9])" + body + "(?![A-Za-z0-9])" : body;
          if (ascii && n === n.toUpperCase() && /[A-Z]/.test(n) && n.length <= 5) { abbr.push([n.length, part]); self.slugOf[n] = g; }
          else { long.push([n.length, part]); self.slugOf[n.toLowerCase().replace(/\s+/g, " ")] = g; }
        });
      });
      function alt(list) { return list.sort(function (a, b) { return b[0] - a[0]; }).map(function (x) { return x[1]; }).join("|") || "(?!x)x"; }
      this.nameRe = [new RegExp(alt(abbr), "g"), new RegExp(alt(long), "gi")];
    }
    var out = [], m, slugOf = this.slugOf;
    this.nameRe.forEach(function (re) {
      re.lastIndex = 0;
      while ((m = re.exec(text)) !== null) {
        if (m[0] === "") { re.lastIndex += 1; continue; }
        var g = slugOf[m[0]] || slugOf[m[0].toLowerCase().replace(/\s+/g, " ")];
        if (g) { out.push({ game: g, start: m.index, end: m.index + m[0].length }); }
      }
    });
    return out;
  };

  // What a query's clause numbers open: rows (in the chosen game, or one per game), games
  // that print the number when none was chosen (ambiguous), rows outside the chosen game.
  // With no game chosen, a query naming one game ("OP 6-5-5-1") looks in that game.
  Rules.prototype.lookup = function (query, game) {
    var self = this, text = queryText(query), found = this.mentions(text);
    var res = { rows: [], ambiguous: [], elsewhere: [], mentions: found, bare: false, named: null };
    var names = this.named(text), games = {};
    names.forEach(function (n) { games[n.game] = 1; });
    if (!game && Object.keys(games).length === 1) { game = res.named = names[0].game; }
    var spans = found.concat(names).sort(function (a, b) { return b.start - a.start; });
    var rest = text;
    spans.forEach(function (m) { rest = rest.slice(0, m.start) + " " + rest.slice(m.end); });
    res.bare = found.length > 0 && !WORD_CHAR.test(rest);
    found.forEach(function (m) {
      var rows = self.mentionRows(m);
      if (game) {
        var inside = rows.filter(function (r) { return self.game(r) === game; });
        inside.forEach(function (r) { if (res.rows.indexOf(r) < 0) { res.rows.push(r); } });
        if (!inside.length) { res.elsewhere = res.elsewhere.concat(rows); }
        return;
      }
      var byGame = {}, order = [];
      rows.forEach(function (r) { var g = self.game(r); if (!(g in byGame)) { byGame[g] = r; order.push(g); } });
      if (order.length > 1) { order.forEach(function (g) { if (res.ambiguous.indexOf(g) < 0) { res.ambiguous.push(g); } }); }
      order.forEach(function (g) { if (res.rows.indexOf(byGame[g]) < 0) { res.rows.push(byGame[g]); } });
    });
    var key = text.trim().toLowerCase();
    (this.alias[key] || []).forEach(function (i) {
      if ((!game || self.game(i) === game) && res.rows.indexOf(i) < 0) { res.rows.push(i); }
    });
    return res;
  };

  // Keywords --------------------------------------------------------------------------------
  Rules.prototype.tokenize = function (text) {
    var stop = this.stop;
    return words(text).filter(function (w) { return !stop.has(w); });
  };

  Rules.prototype.newIndex = function () {
    var self = this, bm = this.bundle.bm25 || {};
    return new this.MiniSearch({
      idField: "i",
      fields: ["h", "t", "q"],
      tokenize: function (text) { return self.tokenize(text); },
      processTerm: function (term) { return term; },
      searchOptions: { combineWith: "OR", bm25: { k: bm.k1 || 0.9, b: bm.b || 0.75, d: 0.5 } }
    });
  };

  Rules.prototype.documents = function () {
    var asked = this.bundle.questions || {};  // the judges' questions each clause answers
    return this.c.map(function (c, i) { return { i: i, h: c[6], t: c[5], q: asked[i] || "" }; });
  };

  // The index, now: what warm() has not indexed yet is added at once (a search cannot wait).
  Rules.prototype.build = function () {
    if (!this.index) {
      if (!this.partial) { this.partial = this.newIndex(); this.pending = this.documents(); }
      this.partial.addAll(this.pending.splice(0));
      this.index = this.partial;
    }
    return this.index;
  };

  // The index built in small steps that leave the page free between them (a slow phone needs
  // seconds for the whole corpus): started when a page is drawn, so that it is ready by the
  // time a judge has typed a question. A search before the last step finishes the same index.
  Rules.prototype.warm = function () {
    var self = this;
    if (this.index) { return Promise.resolve(this.index); }
    if (!this.warming) {
      this.partial = this.newIndex();
      this.pending = this.documents();
      this.warming = new Promise(function (done) {
        function step() {
          if (!self.index) {
            self.partial.addAll(self.pending.splice(0, WARM_CHUNK));
            if (self.pending.length) { setTimeout(step, 0); return; }
            self.index = self.partial;
          }
          done(self.index);
        }
        setTimeout(step, 0);  // not even the first step delays the page being drawn
      });
    }
    return this.warming;
  };

  function forGame(pairs, game) {
    return pairs.filter(function (p) { return !game || p[0] === game; }).map(function (p) { return p[1]; });
  }

  // Book terms for the query (judgekb/index/terms.py Lexicon.expand / expand_thai).
  Rules.prototype.expansion = function (text, game) {
    var q = this.q, out = [];
    var thai = (text.match(/[\u0e01-\u0e5b]/g) || []).length;
    var latin = (text.match(/[A-Za-z]/g) || []).length;
    if (!thai && !latin) { return out; }
    if (thai >= latin) {
      Object.keys(q.thai).filter(function (k) { return text.indexOf(k) >= 0; })
        .sort(function (a, b) { return b.length - a.length; })
        .forEach(function (k) { out = out.concat(forGame(q.thai[k], game)); });
    } else {
      var ws = text.toLowerCase().match(new RegExp(q.word, "g")) || [], i = 0;
      while (i < ws.length) {
        var n = Math.min(q.max_words, ws.length - i);
        for (; n > 0; n--) {
          var key = ws.slice(i, i + n).join(" ");
          if (q.lexicon[key]) { out = out.concat(forGame(q.lexicon[key], game)); break; }
        }
        i += n > 0 ? n : 1;
      }
    }
    return out.filter(function (t, n) { return out.indexOf(t) === n; });
  };

  // Lookups first, then BM25 hits: [{i, score, terms, via}], plus what the lookup found.
  // index/language.py LanguageGuesser.query_lang: th | ms | en | none.
  Rules.prototype.queryLang = function (query) {
    var text = queryText(query).toLowerCase(), fn = this.q.function || { en: [], ms: [] };
    var th = (text.match(/[\u0e00-\u0e7f]/g) || []).length, la = (text.match(/[a-z]/g) || []).length;
    if (!th && !la) { return "none"; }
    if (th >= la) { return "th"; }
    var ws = text.match(/[a-z]+(?:-[a-z]+)*/g) || [];
    if (!this.malay) {
      var self = this, m = new Set();
      this.c.forEach(function (c) { if (self.docs[c[0]].lang === "ms") { (c[5].toLowerCase().match(/[a-z]+/g) || []).forEach(function (w) { m.add(w); }); } });
      this.malay = { words: m, en: new Set(fn.en), ms: new Set(fn.ms) };
    }
    var M = this.malay, en = 0, ms = 0, share = 0;
    ws.forEach(function (w) { en += M.en.has(w); ms += M.ms.has(w); share += M.words.has(w); });
    if (en !== ms) { return ms > en ? "ms" : "en"; }
    return ws.length > 2 && share / ws.length >= (this.q.malay_share || 0.5) ? "ms" : "en";
  };

  // The one game whose books are in the question's language (a Malay question: Vanguard); null
  // when several or none are. The server no longer scopes by language (its game model weighs how
  // a question reads); the phone has no game model, and this scoping measured better offline
  // (scripts/offline_recall.py --as-page).
  Rules.prototype.languageGame = function (query) {
    var lang = this.queryLang(query), games = {};
    if (lang !== "ms" && lang !== "th") { return null; }
    this.docs.forEach(function (d) { if (d.lang === lang) { games[d.game] = 1; } });
    var list = Object.keys(games);
    return list.length === 1 ? list[0] : null;
  };

  // The game the offline page searches: the one the question names ("OP …", "gundam: …"), else
  // the one chosen, else (none chosen, no clause number) languageGame; null: every game. ``why``
  // says which: "named", "language" or null. ``found``: this.lookup(query, game), when known.
  Rules.prototype.searchedGame = function (query, game, found) {
    found = found || this.lookup(query, game || null);
    if (found.named) { return { game: found.named, why: "named" }; }
    if (game || found.mentions.length) { return { game: game || null, why: null }; }
    var byLang = this.languageGame(query);
    return { game: byLang, why: byLang ? "language" : null };
  };

  Rules.prototype.search = function (query, game, k) {
    var self = this, found = this.lookup(query, game), text = queryText(query);
    k = k || 10;
    var hits = found.rows.map(function (i) { return { i: i, score: 0, terms: [], via: "lookup" }; });
    var rest = text;
    found.mentions.slice().reverse().forEach(function (m) { rest = rest.slice(0, m.start) + " " + rest.slice(m.end); });
    var searched = found.bare ? text : rest;
    var expansion = this.expansion(searched, game);
    var terms = this.tokenize(searched).concat(this.tokenize(expansion.join(" ")));
    if (terms.length) {
      var seen = new Set(found.rows);
      this.build().search({ queries: terms, combineWith: "OR" }, {
        filter: game ? function (r) { return self.game(r.id) === game; } : undefined
      }).forEach(function (r) {
        if (hits.length < k && !seen.has(r.id)) {
          hits.push({ i: r.id, score: r.score, terms: r.terms, via: "bm25" });
        }
      });
    }
    return { hits: hits.slice(0, k), lookup: found, expansion: expansion };
  };

  var api = { normalize: normalize, preview: preview, words: words, Rules: Rules, THAI: THAI };
  root.JudgekbRules = api;
  if (typeof module !== "undefined" && module.exports) { module.exports = api; }
})(typeof self !== "undefined" ? self : globalThis);
