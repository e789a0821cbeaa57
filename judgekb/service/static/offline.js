// judgekb with no network: the service worker answers every page address with the offline
// shell (templates/offline.html); this script reads the address and draws the page from the
// offline bundle (static/offline-rules.js): home, search (clause numbers, then keywords),
// table of contents, clause; links and the search form then stay within this page. Same markup and classes as the server's templates, so app.css
// and app.js (copy, save, share, previews) work unchanged. Everything is built with DOM
// calls and textContent: rule text can never become markup.
(function () {
  "use strict";
  var BUNDLE_CACHE = "judgekb-bundle";
  var view = document.getElementById("offline-view");
  if (!view) { return; }
  var L = JSON.parse(view.getAttribute("data-labels"));
  var R = window.JudgekbRules;

  function el(tag, attrs, kids) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) { node.setAttribute(k, attrs[k]); }
    });
    (kids || []).forEach(function (kid) {
      if (kid !== null && kid !== undefined) { node.appendChild(typeof kid === "string" ? document.createTextNode(kid) : kid); }
    });
    return node;
  }

  function bundleUrl() {
    var box = document.querySelector(".offline-copy");
    return box ? box.getAttribute("data-url") : null;
  }

  // The copy stored on this device (the current version if present, else any); the network
  // only when there is none (the shell opened online, e.g. by scripts/offline_recall.py).
  function loadBundle() {
    var want = bundleUrl();
    var cached = "caches" in window ? caches.open(BUNDLE_CACHE).then(function (cache) {
      return cache.keys().then(function (keys) {
        var key = keys.filter(function (k) { return new URL(k.url).pathname === want; })[0] || keys[0];
        return key ? cache.match(key) : null;
      });
    }) : Promise.resolve(null);
    return cached.then(function (r) { return r || (want ? fetch(want) : null); })
      .then(function (r) {
        if (!r || !r.ok) { throw new Error("no offline copy"); }
        return r.json();
      });
  }

  // Pieces -----------------------------------------------------------------------------------
  function note(rules, extra) {
    var b = rules.bundle;
    var p = el("p", { "class": "offline-note", title: L.offline_edition + " " + b.corpus_hash.slice(0, 8) }, [
      L.offline_mode + (b.built_at ? " (" + L.offline_date + " " + b.built_at + ")" : "")
    ]);  // the copy's id, for whoever supports the judge, in the title: not in the judge's way
    if (extra) { p.appendChild(el("br")); p.appendChild(document.createTextNode(extra)); }
    return p;
  }

  function refChip(rules, i, written) {
    if (i < 0) { return el("span", { "class": "ref unresolved", title: L.unresolved }, [written]); }
    return el("a", { "class": "ref", href: rules.url(i), "data-title": rules.id(i),
                     "data-preview": R.preview(rules.text(i) || rules.title(i), 240),
                     "data-lang": rules.doc(i).lang }, [rules.id(i)]);
  }

  function refList(rules, label, refs, pick) {
    if (!refs.length) { return null; }
    var p = el("p", { "class": "refs" }, [el("span", { "class": "refs-label" }, [label + ":"]), " "]);
    refs.forEach(function (r) { p.appendChild(refChip(rules, pick(r), r[2])); p.appendChild(document.createTextNode(" ")); });
    return p;
  }

  // Clause text with the numbers it cites linked (first occurrence of each) and terms marked.
  // A pipe table the book prints, laid out as rows and cells (markup.py render_text).
  var TABLE = /(?:^[ \t]*\|.*\|[ \t]*(?:\n|$))+/gm;
  function tableText(text, lang) {
    var p = el("p", { "class": "text", lang: lang }), pos = 0, m;
    TABLE.lastIndex = 0;
    while ((m = TABLE.exec(text)) !== null) {
      p.appendChild(document.createTextNode(text.slice(pos, m.index)));
      p.appendChild(el("span", { "class": "tbl" }, m[0].split("\n").map(function (line) {
        var cells = line.trim().slice(1, -1).split("|").map(function (c) { return c.trim(); });
        if (/^[\s|:\-]*$/.test(line) || !cells.some(Boolean)) { return null; }
        return el("span", { "class": "tr" }, cells.map(function (c) { return el("span", { "class": "td" }, [c]); }));
      })));
      pos = m.index + m[0].length;
    }
    p.appendChild(document.createTextNode(text.slice(pos)));
    return p;
  }

  function richText(rules, i, refs, marks) {
    var text = rules.text(i), spans = [];
    if (/^[ \t]*\|.*\|[ \t]*$/m.test(text)) { return tableText(text, rules.doc(i).lang); }
    refs.forEach(function (r) {
      if (r[1] < 0 || !r[2].trim()) { return; }
      var esc = r[2].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      var m = new RegExp("(?<![\\w.\\-])" + esc + "(?![.\\-]?\\w)", "i").exec(text);
      if (m) { spans.push({ s: m.index, e: m.index + m[0].length, ref: r[1] }); }
    });
    (marks || []).forEach(function (t) {
      if (t.length < 2) { return; }
      var low = text.toLowerCase(), at = low.indexOf(t);
      while (at >= 0) { spans.push({ s: at, e: at + t.length, mark: true }); at = low.indexOf(t, at + t.length); }
    });
    spans.sort(function (a, b) { return a.s - b.s || (b.e - b.s) - (a.e - a.s); });
    var p = el("p", { "class": "text", lang: rules.doc(i).lang }), pos = 0;
    spans.forEach(function (sp) {
      if (sp.s < pos) { return; }
      p.appendChild(document.createTextNode(text.slice(pos, sp.s)));
      var piece = text.slice(sp.s, sp.e);
      if (sp.mark) { p.appendChild(el("mark", {}, [piece])); }
      else {
        var a = refChip(rules, sp.ref, piece);
        a.className = "term ref";
        a.textContent = piece;
        p.appendChild(a);
      }
      pos = sp.e;
    });
    p.appendChild(document.createTextNode(text.slice(pos)));
    return p;
  }

  function buttons(rules, i) {
    var url = rules.url(i), cite = rules.citation(i);
    return [
      el("button", { type: "button", "class": "copy", "data-copy": cite, "data-url": url, "data-done": L.copied, hidden: "" }, [L.copy_cite]),
      el("button", { type: "button", "class": "star", "aria-pressed": "false", "data-url": url, "data-cite": cite,
                     "data-title": rules.label(i), "data-saved": L.saved_done, "data-removed": L.unsaved_done, hidden: "" }, [L.save]),
      el("button", { type: "button", "class": "share", "data-url": url, "data-title": cite,
                     "data-text": R.preview(rules.text(i), 240), hidden: "" }, [L.share])
    ];
  }

  function citeLine(rules, i, withLink) {
    var d = rules.doc(i);
    var p = el("p", { "class": "cite" }, [rules.games[d.game] + " · " + d.title + " · " + d.version +
      (d.date ? " · " + (withLink ? "" : L.effective + " ") + d.date : "")]);
    if (withLink) { p.appendChild(document.createTextNode(" · ")); p.appendChild(el("a", { "class": "cid", href: rules.url(i) }, ["§" + rules.label(i)])); }
    return p;
  }

  // Pages ------------------------------------------------------------------------------------
  // "§3-1 title": the number never breaks after a hyphen on a phone, the title wraps.
  function headingLabel(rules, i) {
    var id = rules.id(i), label = rules.label(i);
    if (label.indexOf(id) !== 0) { return ["§" + label]; }
    return [el("span", { "class": "nobr" }, ["§" + id]), label.slice(id.length)];
  }

  function clausePage(rules, game, clauseId, docId) {
    var i = rules.find(game, clauseId.replace(/\.$/, ""), docId);
    if (i < 0) { return noClause(rules, game, clauseId.replace(/\.$/, "")); }
    var d = rules.doc(i), lang = d.lang;
    document.title = rules.label(i) + " · " + rules.games[game] + " · judgekb";
    var crumbs = el("nav", { "class": "crumbs", "aria-label": L.crumbs }, [el("a", { href: "/rules/" + encodeURIComponent(game) }, [L.contents])]);
    rules.parents(i).forEach(function (p) {
      crumbs.appendChild(document.createTextNode(" › "));
      crumbs.appendChild(el("a", { href: rules.url(p), lang: lang }, [rules.label(p, true)]));
    });
    var art = el("article", { "class": "clause" }, [citeLine(rules, i, false), crumbs, el("h1", { "class": "cid" }, headingLabel(rules, i))]);
    var asked = clauseId.replace(/\.$/, "");
    if (asked !== rules.id(i)) {  // a misprint's intended number: say which clause this is
      art.appendChild(el("p", { "class": "note-alias", role: "note" }, [L.alias_resolved.replace("{asked}", asked).replace("{printed}", rules.id(i))]));
    }
    rules.amendments(i).forEach(function (a) {
      var amends = a[0] === i, other = amends ? a[1] : a[0];
      var p = el("p", { "class": "badge badge-amended" }, [(amends ? L.superseded_by : L.earlier_wording) + " "]);
      if (a[2] < rules.bundle.probable_below) { p.appendChild(el("span", { "class": "probable" }, ["(" + L.probable + ") "])); }
      p.appendChild(other >= 0 ? refChip(rules, other, "") : document.createTextNode(L.no_counterpart));
      if (other >= 0) { p.lastChild.textContent = rules.doc(other).title + " §" + rules.id(other); }
      art.appendChild(p);
    });
    var problems = rules.notes(i, document.documentElement.lang);
    if (problems.length) {  // as the server's page: a misprint is never read out as clean text
      art.appendChild(el("ul", { "class": "notes", "aria-label": L.known_problems }, problems.map(function (m) {
        return el("li", { "class": "note" }, [el("strong", {}, [L.known_problems + ":"]), " " + m]);
      })));
    }
    art.appendChild(richText(rules, i, rules.refsOut(i), []));
    if (rules.raw(i)) {
      art.appendChild(el("details", { "class": "original" }, [el("summary", {}, [L.original]), el("p", { "class": "raw", lang: lang }, [rules.raw(i)])]));
    }
    [refList(rules, L.refers_to, rules.refsOut(i), function (r) { return r[1]; }),
     refList(rules, L.referred_by, rules.refsIn(i), function (r) { return r[0]; })].forEach(function (x) { if (x) { art.appendChild(x); } });
    var others = rules.docs.filter(function (o) { return o.game === game && o.id !== d.id && rules.get(o.id, rules.id(i)) >= 0; });
    if (others.length) {
      var po = el("p", { "class": "refs" }, [L.other_docs + ": "]);
      others.forEach(function (o, n) { po.appendChild(el("a", { href: rules.url(rules.get(o.id, rules.id(i))) }, [o.title])); if (n < others.length - 1) { po.appendChild(document.createTextNode(", ")); } });
      art.appendChild(po);
    }
    art.appendChild(el("p", { "class": "actions" }, [el("span", { "class": "citation" }, [rules.citation(i)]), " "].concat(buttons(rules, i))));
    var kids = rules.children(d.id, rules.id(i));
    if (kids.length) {
      art.appendChild(el("h2", {}, [L.children]));
      art.appendChild(el("ul", { "class": "children", lang: lang }, kids.map(function (k) { return el("li", {}, [el("a", { href: rules.url(k) }, [rules.label(k, true)])]); })));
    }
    var sib = rules.siblings(i);
    art.appendChild(el("nav", { "class": "pager", lang: lang }, [
      sib[0] >= 0 ? el("a", { rel: "prev", href: rules.url(sib[0]) }, ["← " + rules.label(sib[0], true)]) : el("span"),
      sib[1] >= 0 ? el("a", { rel: "next", href: rules.url(sib[1]) }, [rules.label(sib[1], true) + " →"]) : null
    ]));
    return [note(rules, dated() ? L.offline_no_date : undefined), art];
  }

  function tocPage(rules, game) {
    if (!rules.games[game]) { return missing(rules); }
    document.title = L.contents + " · " + rules.games[game] + " · judgekb";
    var out = [note(rules), el("h1", {}, [rules.games[game]])];
    rules.docs.filter(function (d) { return d.game === game; }).forEach(function (d, n) {
      function tree(parent, level) {
        return el("ul", { "class": "toc" }, rules.children(d.id, parent).map(function (k) {
          var label = rules.label(k, true), a = el("a", { href: rules.url(k), lang: d.lang }, [label]);
          var sub = level < 2 ? rules.children(d.id, rules.id(k)) : [];
          if (!sub.length) { return el("li", {}, [a]); }
          var summary = el("summary", {}, [L.children + " (" + sub.length + ")"]);
          return el("li", {}, [a, el("details", {}, [summary, tree(rules.id(k), level + 1)])]);
        }));
      }
      var summary = el("summary", {}, [el("strong", {}, [d.title]), " · " + d.version + (d.date ? " · " + d.date : "")]);
      out.push(el("section", { "class": "doc" }, [el("details", { open: n === 0 ? "" : null }, [summary, tree(null, 1)])]));
    });
    return out;
  }

  function homePage(rules) {
    var games = el("ul", { "class": "game-list" }, Object.keys(rules.games).map(function (g) {
      var docs = rules.docs.filter(function (d) { return d.game === g; }).map(function (d) { return d.title + " (" + d.version + ")"; });
      return el("li", {}, [el("a", { href: "/rules/" + encodeURIComponent(g) }, [rules.games[g]]), el("small", {}, [docs.join("; ")])]);
    }));
    return [el("section", { "class": "intro" }, [el("h1", {}, [L.title]), el("p", {}, [L.help])]), note(rules),
      el("section", { "class": "device-list saved-list", "aria-labelledby": "saved-h", hidden: "" }, [el("h2", { id: "saved-h" }, [L.saved]), el("ul")]),
      el("section", { "class": "device-list recent-list", "aria-labelledby": "recent-h", hidden: "" }, [el("h2", { id: "recent-h" }, [L.recent]), el("ul"), el("button", { type: "button", "class": "clear-recent" }, [L.clear])]),
      el("section", { "class": "games" }, [el("h2", {}, [L.contents]), games])];
  }

  function searchPage(rules, q, game) {
    document.title = q + " · judgekb";
    var found = rules.lookup(q, game || null);
    if (found.bare && found.mentions.length === 1 && found.rows.length && !found.ambiguous.length) {
      var i0 = found.rows[0], typed = found.mentions[0].ids;  // a clause number opens its page
      return go(rules, typed.indexOf(rules.id(i0)) < 0 ?  // a misprint's: its page says so
        "/rules/" + encodeURIComponent(rules.game(i0)) + "/" + typed[0] : rules.url(i0), true);
    }
    var searched = rules.searchedGame(q, game, found);
    game = searched.game;
    var res = rules.search(q, game || null, 10);
    var out = [el("h1", { "class": "summary" }, [L.results_for + " ", el("q", {}, [q.length > 140 ? q.slice(0, 140) + "…" : q]), " ", el("small", {}, ["· " + res.hits.length])]),
               note(rules, L.offline_keywords)];
    var status = el("section", { "class": "status", role: "status" });
    function links(rows) {  // one clause per game
      var seen = {};
      return el("ul", {}, rows.filter(function (i) { var g = rules.game(i), s = seen[g]; seen[g] = 1; return !s; }).map(function (i) {
        return el("li", {}, [el("a", { href: rules.url(i) }, [rules.games[rules.game(i)] + " §" + rules.id(i)])]);
      }));
    }
    if (found.ambiguous.length) {
      status.appendChild(el("p", {}, [L.ambiguous_number]));
      status.appendChild(links(found.rows.filter(function (i) { return found.ambiguous.indexOf(rules.game(i)) >= 0; })));
    } else if (found.elsewhere.length) {
      status.appendChild(el("p", {}, [L.not_in_game]));
      status.appendChild(links(found.elsewhere));
    } else if (found.mentions.length && !found.rows.length) {  // no book prints it
      status.appendChild(el("p", {}, [L.no_such_number]));
      status.appendChild(links(nearest(rules, found.mentions, game)));
    }
    if (searched.why) {
      status.appendChild(el("p", { "class": "inferred" }, [(searched.why === "language" ? L.searched_in_language : L.searched_in_named) + " ", el("strong", {}, [rules.games[game]])]));
    }
    if (dated()) { status.appendChild(el("p", { "class": "offline-note" }, [L.offline_no_date])); }
    out.push(status);
    if (!res.hits.length) { out.push(el("p", { "class": "empty" }, [L.no_results])); }
    out.push(el("ol", { "class": "hits" }, res.hits.map(function (h) {
      var i = h.i, path = rules.parents(i).map(function (p) { return rules.label(p); });
      return el("li", { "class": "hit" + (rules.doc(i).kind === "amendment" ? " older" : "") }, [
        citeLine(rules, i, true),
        path.length ? el("p", { "class": "crumbs", lang: rules.doc(i).lang }, [path.join(" › ")]) : null,
        richText(rules, i, [], h.terms),
        el("p", { "class": "actions" }, [el("a", { href: rules.url(i) }, [rules.citation(i)]), " ", buttons(rules, i)[0]])
      ]);
    })));
    return out;
  }

  // The nearest numbers a book prints to numbers none does: their existing ancestors.
  function nearest(rules, mentions, game) {
    var out = [];
    mentions.forEach(function (m) {
      Object.keys(rules.games).forEach(function (g) {
        if (game && g !== game) { return; }
        var probe = m.ids[0], cut, i;
        while ((cut = Math.max(probe.lastIndexOf("."), probe.lastIndexOf("-"))) > 0) {
          probe = probe.slice(0, cut);
          if ((i = rules.find(g, probe, null)) >= 0) { out.push(i); return; }
        }
      });
    });
    return out;
  }

  function dated() {
    var p = new URLSearchParams(location.search);
    return p.has("date") || p.has("edition");
  }

  function noClause(rules, game, clauseId) {
    if (!(game in rules.games)) {
      return [el("h1", {}, [L.err_unknown_game]), el("ul", {}, Object.keys(rules.games).map(function (g) {
        return el("li", {}, [el("a", { href: "/rules/" + encodeURIComponent(g) }, [rules.games[g]])]);
      }))];
    }
    var near = nearest(rules, [{ ids: [clauseId] }], game);
    var other = [clauseId.replace(/\./g, "-"), clauseId.replace(/-/g, ".")].map(function (c) { return rules.find(game, c, null); });
    near = other.filter(function (i) { return i >= 0; }).concat(near);
    return [el("h1", {}, [L.err_no_clause]), near.length ? el("p", {}, [L.did_you_mean + ": "].concat(
      near.map(function (i) { return el("a", { href: rules.url(i) }, ["§" + rules.id(i)]); }))) : null,
      el("p", {}, [el("a", { href: "/rules/" + encodeURIComponent(game) }, [L.contents])])];
  }

  function missing(rules) {
    return [el("h1", {}, [L.offline_missing]), note(rules), el("p", {}, [el("a", { href: "/" }, [L.back])])];
  }

  // The address ---------------------------------------------------------------------------
  function route(rules) {
    var path = decodeURIComponent(location.pathname), params = new URLSearchParams(location.search), m;
    if (path === "/") { return homePage(rules); }
    if (path === "/search" && (params.get("q") || "").trim()) { return searchPage(rules, params.get("q").trim(), params.get("game")); }
    if ((m = /^\/rules\/([^/]+)\/?$/.exec(path))) { return tocPage(rules, m[1]); }
    if ((m = /^\/rules\/([^/]+)\/(.+)$/.exec(path))) { return clausePage(rules, m[1], m[2], params.get("doc")); }
    return missing(rules);
  }

  function chrome() {
    var params = new URLSearchParams(location.search);
    var input = document.querySelector(".search input[name=q]");
    var select = document.querySelector(".search select[name=game]");
    if (input && params.get("q")) { input.value = params.get("q"); }
    if (select && params.get("game")) { select.value = params.get("game"); }
    Array.prototype.forEach.call(document.querySelectorAll(".langs a[hreflang]"), function (a) {
      var p = new URLSearchParams(location.search);
      p.set("lang", a.getAttribute("hreflang"));
      a.href = location.pathname + "?" + p.toString();
    });
  }

  function draw(nodes) {
    view.textContent = "";
    nodes.forEach(function (n) { view.appendChild(n); });
    if (window.judgekb) { window.judgekb.enhance(view); }
  }

  // Offline, moving between pages stays in this page (the history API): the bundle is read
  // and the search index built once, not at every tap. Focus moves to the new heading.
  function go(rules, url, replace) {
    history[replace ? "replaceState" : "pushState"](null, "", url);
    chrome();
    if (window.judgekb && location.pathname === "/search") { window.judgekb.recordSearch(); }
    var nodes = route(rules);
    if (!replace) {
      draw(nodes);
      window.scrollTo(0, 0);
      var h1 = view.querySelector("h1");
      if (h1) { h1.setAttribute("tabindex", "-1"); h1.focus(); }
    }
    return nodes;
  }

  function ours(url) {
    if (url.hash && url.pathname === location.pathname && url.search === location.search) { return false; }
    return url.origin === location.origin && /^\/($|search$|rules\/)/.test(url.pathname) &&
      !url.searchParams.has("lang");  // another language: its own shell
  }

  function stayHere(rules) {
    document.addEventListener("click", function (e) {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) { return; }
      var a = e.target.closest && e.target.closest("a[href]");
      if (!a || a.target) { return; }
      var url = new URL(a.href, location.href);
      if (!ours(url)) { return; }
      e.preventDefault();
      go(rules, url.pathname + url.search);
    });
    document.addEventListener("submit", function (e) {
      var form = e.target;
      if (!form.matches("form.search")) { return; }
      e.preventDefault();
      var params = new URLSearchParams(new FormData(form));
      if (!params.get("game")) { params.delete("game"); }
      go(rules, "/search?" + params.toString());
    });
    window.addEventListener("popstate", function () { chrome(); draw(route(rules)); });
  }

  // The network back: the full site again (search by meaning, rulings, editions), in the
  // language chosen offline (the server keeps it from then on), with or without a copy here.
  // Only once the server answers: an "online" event alone (one can come while still cut off)
  // must not replace the page a judge is opening.
  window.addEventListener("online", function () {
    fetch("/healthz", { cache: "no-store" }).then(function (r) {
      if (!r.ok) { return; }
      var u = new URL(location.href);
      if (!u.searchParams.has("lang")) { u.searchParams.set("lang", document.documentElement.lang); }
      location.replace(u.toString());
    }, function () { /* still offline */ });
  });
  chrome();
  var ready = loadBundle().then(function (bundle) {
    var rules = new R.Rules(bundle, window.MiniSearch);
    draw(route(rules));
    stayHere(rules);
    rules.warm();  // the keyword index, in steps, while the judge reads or types
    return rules;
  }, function (err) {
    draw([el("p", { "class": "offline-note" }, [L.offline_none])]);
    throw err;
  });
  window.judgekbOffline = { ready: ready };
})();
