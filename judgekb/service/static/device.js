// judgekb, what stays on the judge's device (loaded by app.js only on pages that use it):
// saved (starred) clauses, sharing, the lists of saved clauses and recent searches on the
// home page, and the offline copy of the rules (download with a progress bar, its status).
(function () {
  "use strict";
  var SAVED = "judgekb.saved", BUNDLE_CACHE = "judgekb-bundle";
  var J = window.judgekb;

  function $all(sel, root) { return Array.prototype.slice.call(root.querySelectorAll(sel)); }

  // Saved clauses and sharing ----------------------------------------------------------------
  function isSaved(url) { return J.load(SAVED).some(function (s) { return s.url === url; }); }

  // The star says its state in words too ("Save" / "Saved"), not only by its colour.
  function showSaved(b, on) {
    if (!b.hasAttribute("data-label")) { b.setAttribute("data-label", b.textContent); }
    b.setAttribute("aria-pressed", String(on));
    b.textContent = on ? b.getAttribute("data-saved") : b.getAttribute("data-label");
  }

  function toggleSaved(b) {
    var url = b.getAttribute("data-url"), on = !isSaved(url);
    var list = J.load(SAVED).filter(function (s) { return s.url !== url; });
    if (on) { list.unshift({ url: url, cite: b.getAttribute("data-cite"), title: b.getAttribute("data-title") }); }
    J.store(SAVED, list.slice(0, 200));
    showSaved(b, on);
    J.say(b.getAttribute(on ? "data-saved" : "data-removed"));
  }

  function bindOnce(b, handler) {
    if (b.getAttribute("data-bound")) { return; }
    b.setAttribute("data-bound", "1");
    b.addEventListener("click", function () { handler(b); });
  }

  function share(b) {
    navigator.share({ title: b.getAttribute("data-title"), text: b.getAttribute("data-text"),
                      url: location.origin + b.getAttribute("data-url") })
      .catch(function () { /* the judge closed the share sheet */ });
  }

  // Home page lists --------------------------------------------------------------------------
  function item(href, text, note) {
    var li = document.createElement("li"), a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    li.appendChild(a);
    if (note) {
      var small = document.createElement("small");
      small.textContent = " " + note;
      li.appendChild(small);
    }
    return li;
  }

  function fill(section, items, make) {
    if (!section) { return; }
    var ul = section.querySelector("ul");
    ul.textContent = "";
    items.forEach(function (x) { ul.appendChild(make(x)); });
    section.hidden = items.length === 0;
  }

  function lists(root) {
    var names = {};
    $all("select[name=game] option", document).forEach(function (o) { names[o.value] = o.textContent; });
    fill(root.querySelector(".saved-list"), J.load(SAVED), function (s) { return item(s.url, s.cite || s.title, ""); });
    var recent = root.querySelector(".recent-list");
    fill(recent, J.load(J.RECENT), function (r) {
      var href = "/search?q=" + encodeURIComponent(r.q) + (r.game ? "&game=" + encodeURIComponent(r.game) : "");
      return item(href, r.q, r.game ? "· " + (names[r.game] || r.game) : "");
    });
    var clear = recent && recent.querySelector(".clear-recent");
    if (clear) { bindOnce(clear, function () { J.store(J.RECENT, []); lists(root); }); }
  }

  // The offline copy -------------------------------------------------------------------------
  // Fetch the bundle, moving the progress bar as the (decompressed) bytes arrive, then keep
  // it in the cache the service worker reads, in place of any older copy.
  function download(url, bar) {
    return fetch(url, { cache: "no-store" }).then(function (r) {
      if (!r.ok || !r.body) { throw new Error("HTTP " + r.status); }
      var reader = r.body.getReader(), chunks = [], got = 0;
      function pump() {
        return reader.read().then(function (step) {
          if (step.done) { return null; }
          chunks.push(step.value);
          got += step.value.length;
          bar.value = got;
          return pump();
        });
      }
      return pump().then(function () {
        var copy = new Response(new Blob(chunks), { headers: { "Content-Type": "application/json" } });
        return caches.open(BUNDLE_CACHE).then(function (cache) {
          return cache.put(url, copy).then(function () { return cache.keys(); }).then(function (keys) {
            return Promise.all(keys.filter(function (k) { return new URL(k.url).pathname !== url; })
              .map(function (k) { return cache.delete(k); }));
          });
        });
      });
    });
  }

  function offlineCopy(box) {
    if (box.getAttribute("data-bound")) { return; }
    box.setAttribute("data-bound", "1");
    var status = box.querySelector(".offline-status"), button = box.querySelector(".offline-get");
    var bar = box.querySelector(".offline-progress"), url = box.getAttribute("data-url");
    box.hidden = false;
    if (!("caches" in window) || !("serviceWorker" in navigator)) {
      status.textContent = box.getAttribute("data-unsupported");
      button.hidden = true;
      return;
    }
    function refresh() {
      return caches.open(BUNDLE_CACHE).then(function (cache) { return cache.keys(); }).then(function (keys) {
        var paths = keys.map(function (k) { return new URL(k.url).pathname; });
        var ready = paths.indexOf(url) >= 0;
        status.textContent = ready ? box.getAttribute("data-ready") : paths.length ? box.getAttribute("data-outdated") : "";
        button.hidden = ready;
        box.classList.toggle("ready", ready);
      });
    }
    button.addEventListener("click", function () {
      button.disabled = true;
      bar.hidden = false;
      bar.value = 0;
      status.textContent = box.getAttribute("data-downloading");
      download(url, bar).then(refresh).then(function () { J.say(status.textContent); }, function () {
        status.textContent = box.getAttribute("data-failed");
        J.say(status.textContent);
      }).then(function () { button.disabled = false; bar.hidden = true; });
    });
    navigator.serviceWorker.addEventListener("message", function (e) {
      if (e.data && e.data.type === "bundle-cached") { refresh(); }
    });
    refresh();
  }

  J.device = function (root) {
    $all("button.star", root).forEach(function (b) {
      showSaved(b, isSaved(b.getAttribute("data-url")));
      bindOnce(b, toggleSaved);
      b.hidden = false;
    });
    if (navigator.share) {
      $all("button.share", root).forEach(function (b) { bindOnce(b, share); b.hidden = false; });
    }
    lists(root);
    $all(".offline-copy", root).forEach(offlineCopy);
  };
})();
