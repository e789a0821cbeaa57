// judgekb: remember the game filter, hover/tap previews of references, copy citation.
(function () {
  "use strict";
  var KEY = "judgekb.game";
  var pop = null, popFor = null, lastPointer = "mouse";

  function remember() {
    document.querySelectorAll("select[data-remember]").forEach(function (sel) {
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
  }

  function hide() { if (pop) { pop.remove(); pop = null; popFor = null; } }

  function show(a, withLink) {
    var text = a.getAttribute("data-preview");
    if (!text) { return false; }
    hide();
    pop = document.createElement("div");
    pop.className = "pop";
    pop.setAttribute("role", "tooltip");
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
      copyText(text).then(function () { b.textContent = b.getAttribute("data-done"); });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    remember();
    previews();
    copyButtons();
  });
})();
