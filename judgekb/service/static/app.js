// judgekb on every page: game filter remembered, reference previews, copy citation, recent
// searches, a header that slides away, the service worker. Controls needing a script are
// rendered `hidden` and shown here (or by device.js): no button that does nothing.
(function () {
  "use strict";
  var KEY = "judgekb.game", RECENT = "judgekb.recent";
  var pop = null, popFor = null, lastPointer = "mouse";

  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function load(key) {
    try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return []; }
  }
  function store(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* storage blocked */ }
  }

  // One polite live region per page (base.html): copy, save and previews are announced.
  function say(text) {
    var live = document.getElementById("live");
    if (!live) { return; }
    live.textContent = "";
    window.setTimeout(function () { live.textContent = text; }, 60);
  }

  function remember() {
    $all("select[data-remember]").forEach(function (sel) {
      try {
        var saved = localStorage.getItem(KEY);
        if (sel.hasAttribute("data-restore") && saved !== null && !sel.value &&
            Array.prototype.some.call(sel.options, function (o) { return o.value === saved; })) {
          sel.value = saved;
        }
        sel.addEventListener("change", function () { localStorage.setItem(KEY, sel.value); });
        sel.form.addEventListener("submit", function () { localStorage.setItem(KEY, sel.value); });
      } catch (e) { /* storage blocked: the filter still works for this page */ }
    });
    // The chip's x forgets the remembered game too.
    $all(".chip-remove").forEach(function (a) {
      a.addEventListener("click", function () {
        try { localStorage.setItem(KEY, ""); } catch (e) { /* storage blocked */ }
      });
    });
  }

  // Previews
  function hide() { if (pop) { pop.remove(); pop = null; popFor = null; } }

  function show(a, withLink) {
    var text = a.getAttribute("data-preview");
    if (!text) { return false; }
    hide();
    pop = document.createElement("div");
    pop.className = "pop";
    pop.setAttribute("role", "tooltip");
    var inLang = a.closest("[lang]");
    pop.lang = a.getAttribute("data-lang") || (inLang ? inLang.lang : document.documentElement.lang);
    var head = document.createElement("strong");
    head.textContent = a.getAttribute("data-title") || a.textContent;
    var body = document.createElement("span");
    body.textContent = text;
    pop.appendChild(head);
    pop.appendChild(body);
    if (withLink) {
      var go = document.createElement("a");
      go.href = a.getAttribute("href");
      go.textContent = " →";
      pop.appendChild(go);
    }
    document.body.appendChild(pop);
    var r = a.getBoundingClientRect();
    var left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - pop.offsetWidth - 8));
    pop.style.left = left + "px";
    pop.style.top = (r.bottom + window.scrollY + 6) + "px";
    popFor = a;
    if (withLink || lastPointer === "key") { say(head.textContent + ": " + text); }
    return true;
  }

  function previews() {
    document.addEventListener("pointerdown", function (e) { lastPointer = e.pointerType || "mouse"; }, true);
    document.addEventListener("mouseover", function (e) {
      var a = e.target.closest && e.target.closest("a.ref[data-preview]");
      if (a && lastPointer === "mouse" && a !== popFor) { show(a, false); }
    });
    document.addEventListener("mouseout", function (e) {
      var a = e.target.closest && e.target.closest("a.ref[data-preview]");
      if (a && lastPointer === "mouse" && !a.contains(e.relatedTarget)) { hide(); }
    });
    document.addEventListener("focusin", function (e) {  // keyboard focus previews too
      if (lastPointer === "key" && e.target.matches && e.target.matches("a.ref[data-preview]")) {
        show(e.target, false);
      }
    });
    document.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest("a.ref[data-preview]");
      if (a && lastPointer !== "mouse" && a !== popFor) {
        if (show(a, true)) { e.preventDefault(); }  // first tap previews, second tap opens
      } else if (!a && pop && !pop.contains(e.target)) { hide(); }
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { hide(); }
      if (e.key === "Tab") { lastPointer = "key"; }
    });
  }

  // Copy, save, share
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) { return navigator.clipboard.writeText(text); }
    var ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.className = "pop";
    document.body.appendChild(ta);
    ta.select();
    try { document.execCommand("copy"); } finally { ta.remove(); }
    return Promise.resolve();
  }

  function copyButtons() {
    document.addEventListener("click", function (e) {
      var b = e.target.closest && e.target.closest("button.copy");
      if (!b) { return; }
      var text = b.getAttribute("data-copy") + " " + location.origin + b.getAttribute("data-url");
      b.setAttribute("data-citation", text);
      var was = b.getAttribute("data-label") || b.textContent;
      b.setAttribute("data-label", was);
      copyText(text).then(function () {
        b.textContent = b.getAttribute("data-done");
        say(b.getAttribute("data-done"));
        setTimeout(function () { b.textContent = was; }, 2500);  // ready for the next copy
      });
    });
  }

  // Show the controls this browser can run, in ``root`` (the page, or what offline.js drew);
  // saving, sharing, the device lists and the offline copy live in device.js, fetched only
  // by pages that have them.
  var device = null;
  function enhance(root) {
    $all("button.copy", root).forEach(function (b) { b.hidden = false; });
    if (!(root || document).querySelector(".star, .share, .device-list, .offline-copy")) { return; }
    if (!device) {
      device = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = "/static/device.js";
        s.onload = function () { resolve(window.judgekb.device); };
        s.onerror = reject;
        document.head.appendChild(s);
      });
    }
    device.then(function (run) { run(root || document); }, function () { /* stays hidden */ });
  }

  // Recent searches (listed on the home page by device.js)
  function recordSearch() {
    var params = new URLSearchParams(location.search);
    var q = (params.get("q") || "").trim();
    if (location.pathname !== "/search" || !q) { return; }
    var game = params.get("game") || "";
    var list = load(RECENT).filter(function (r) { return !(r.q === q && r.game === game); });
    list.unshift({ q: q, game: game });
    store(RECENT, list.slice(0, 10));
  }

  // A header that gets out of the way
  function header() {
    var top = document.querySelector(".top");
    if (!top) { return; }
    var last = window.scrollY, queued = false;
    window.addEventListener("scroll", function () {
      if (queued) { return; }
      queued = true;
      window.requestAnimationFrame(function () {
        var y = window.scrollY;
        if (y > last + 6 && y > top.offsetHeight) { top.classList.add("away"); }
        else if (y < last - 6 || y <= top.offsetHeight) { top.classList.remove("away"); }
        last = y;
        queued = false;
      });
    }, { passive: true });
  }

  function worker() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) { return; }
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("/sw.js").catch(function () { /* offline stays off */ });
    });
  }

  window.judgekb = { enhance: enhance, say: say, load: load, store: store, RECENT: RECENT,
                     recordSearch: recordSearch };

  document.addEventListener("DOMContentLoaded", function () {
    remember();
    previews();
    copyButtons();
    recordSearch();
    enhance(document);
    header();
    worker();
  });
})();
