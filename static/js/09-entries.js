/* What the player entered on the live table (10-live.js uses these): the input this phone is
   typing, kept through an update from another phone, with what changed underneath marked; and a
   refused save's notice moved beside the form whose entry was kept. Split from 10-live.js so each
   file stays readable; nothing here sends or fetches. */
(function () {
  "use strict";

  function live() { return document.getElementById("live"); }
  function msg(key) {
    var tpl = document.getElementById("live-messages");
    var el = tpl && tpl.content ? tpl.content.querySelector('[data-msg="' + key + '"]') : null;
    return el ? el.textContent : "";
  }

  /* A stale save (409): the fresh page carries the conflict notice at its top, far above a form the
     player scrolled down to. The notice moves to just above the form that was refused (its entry is
     kept there), in the page's flow so it never covers the form's buttons, and the page scrolls so it
     is the first line in view. With the form gone from the fresh page, the notice stays at the
     top and the page scrolls up to it. Without JavaScript the page reloads at its top, notice first. */
  function inRow(parent) {
    var s = getComputedStyle(parent);
    if (/flex/.test(s.display)) return !/column/.test(s.flexDirection);
    if (/grid/.test(s.display)) return s.gridTemplateColumns.trim().split(/\s+/).length > 1;
    return false;
  }
  function flowParent(el) {
    // A form laid out in a row (a counter, a toolbar) keeps its row: the notice goes above the row.
    var target = el;
    while (target.parentElement && target.parentElement !== live() && inRow(target.parentElement)) target = target.parentElement;
    return target;
  }

  function showConflict(key) {
    var region = live();
    var notice = region && region.querySelector(":scope > .notice-conflict");
    if (!notice) return;
    var form = key ? document.getElementById(key) : null;
    if (form && form.tagName === "FORM" && region.contains(form)) {
      for (var d = form.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      if (form.getClientRects().length) {
        var target = flowParent(form);
        target.parentNode.insertBefore(notice, target);
        notice.classList.add("notice-at-form");
      }
    }
    // The notice is the first line in view, just below the top bar (issue 33: a refusal is the first
    // thing the player reads), with the form and its kept entry right under it.
    var pad = parseFloat(getComputedStyle(notice).scrollMarginTop) || 0;
    var top = notice.getBoundingClientRect().top;
    if (Math.abs(top - pad) > 1) window.scrollBy(0, top - pad);
  }

  /* A refused save (422): each message sits next to its box, which on a phone is often above the
     screen by the time the Save button is tapped, so the swap alone would say nothing. The first box
     refused comes into view with its message and takes the focus (the message is its description);
     a problem with the whole form shows the form's own message. Without JavaScript the page reloads
     at its top, where the same messages lead the page. */
  function showRefused(key) {
    var region = live();
    var form = key ? document.getElementById(key) : null;
    if (!region) return;
    var target = null;
    if (form && form.tagName === "FORM" && region.contains(form)) {
      for (var d = form.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      target = form.querySelector('[aria-invalid="true"]') || form.querySelector(".error");
    }
    if (!target || !target.getClientRects().length) target = region.querySelector(":scope > .notice-error");
    if (!target) return;
    var wrap = target.closest(".field") || target;
    wrap.scrollIntoView({ block: "center" });
    if (target.matches("input, select, textarea")) target.focus({ preventScroll: true });
  }

  /* -- keeping what this phone typed through an update ------------------------------------------ */

  function initialOption(select) {
    for (var j = 0; j < select.options.length; j++) if (select.options[j].defaultSelected) return j;
    return 0;
  }

  function typed(form) {
    var fields = [];
    for (var i = 0; i < form.elements.length; i++) {
      var f = form.elements[i];
      if (!f.name || f.type === "hidden" || f.type === "submit" || f.type === "button" || f.disabled || f.readOnly) continue;
      if (f.type === "checkbox" || f.type === "radio") {
        if (f.checked !== f.defaultChecked) fields.push({ check: true, name: f.name, value: f.value, checked: f.checked, was: f.defaultChecked });
      } else if (f.tagName === "SELECT") {
        if (f.selectedIndex !== initialOption(f)) fields.push({ id: f.id, name: f.name, value: f.value, was: f.options[initialOption(f)] ? f.options[initialOption(f)].value : "" });
      } else if (f.value !== f.defaultValue) {
        fields.push({ id: f.id, name: f.name, value: f.value, was: f.defaultValue });
      }
    }
    return fields;
  }

  function keepInput(region, exceptKey) {
    var kept = {};
    var forms = region.querySelectorAll("form[id]");
    for (var i = 0; i < forms.length; i++) {
      if (forms[i].id === exceptKey) continue;
      var fields = typed(forms[i]);
      if (fields.length) kept[forms[i].id] = { v: forms[i].elements.v ? forms[i].elements.v.value : null, fields: fields };
    }
    return kept;
  }

  function mark(field, now) {
    var box = field.closest(".field") || field.parentNode;
    if (!box || box.querySelector("[data-changed-note]")) return;
    box.classList.add("changed-under");
    var note = document.createElement("p");
    note.className = "hint changed-note";
    note.setAttribute("data-changed-note", "");
    note.id = (field.id || field.name) + "-changed";
    note.textContent = msg("changed-under").replace("{value}", now === "" ? "—" : now);
    box.appendChild(note);
    var described = field.getAttribute("aria-describedby");
    field.setAttribute("aria-describedby", (described ? described + " " : "") + note.id);
  }

  function putBack(kept) {
    Object.keys(kept).forEach(function (formId) {
      var form = document.getElementById(formId);
      if (!form) return;
      var entry = kept[formId];
      // A form being filled in stays in view: the <details> holding it stays open.
      for (var d = form.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      // The form keeps the version its input was typed on, so the server judges it on that view.
      if (entry.v !== null && form.elements.v) form.elements.v.value = entry.v;
      entry.fields.forEach(function (f) {
        if (f.check) {
          var boxes = form.querySelectorAll("input[name]");
          for (var i = 0; i < boxes.length; i++) {
            var b = boxes[i];
            if (b.name !== f.name || b.value !== f.value || (b.type !== "checkbox" && b.type !== "radio")) continue;
            if (b.defaultChecked !== f.was) mark(b, b.defaultChecked ? b.value : "");
            b.checked = f.checked;
          }
          return;
        }
        var el = f.id ? document.getElementById(f.id) : null;
        if (!el || el.form !== form) el = form.querySelector('[name="' + f.name.replace(/"/g, "") + '"]:not([type=radio]):not([type=checkbox]):not([type=hidden])');
        if (!el) return;
        var now = el.tagName === "SELECT" ? (el.options[initialOption(el)] || {}).value || "" : el.defaultValue;
        // The table now holds what was typed (this phone's own save, pushed before its answer came
        // back, or another phone entering the same): nothing is left to keep and nothing to flag.
        if (now === f.value) return;
        el.value = f.value;
        if (now !== f.was) mark(el, now);
        el.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  }

  /* A disclosure the player opened (a player's "Edit", a "More" panel) stays open through an update
     from another phone, even before anything is typed in it: the fresh region arrives with every
     <details> as the server drew it, and a panel closing under the thumb that just opened it reads
     as a lost tap. A <details> is known by its id, else its first form's, else its summary's text.
     The one holding the form just answered (exceptKey) is the server's to draw, as are the ones it
     draws open: this only opens, never closes. */
  function disclosureKey(d) {
    if (d.id) return "#" + d.id;
    var form = d.querySelector("form[id]");
    if (form) return "form:" + form.id;
    var summary = d.querySelector("summary");
    return summary ? "summary:" + summary.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // Every <details> of the region with its key, made unique by its place among those of the same key
  // (two "More" panels, or a panel and one inside it holding the same first form).
  function disclosures(region) {
    var seen = {}, found = [];
    var all = region.querySelectorAll("details");
    for (var i = 0; i < all.length; i++) {
      var key = disclosureKey(all[i]);
      if (!key) continue;
      seen[key] = (seen[key] || 0) + 1;
      found.push({ el: all[i], key: key + "|" + seen[key] });
    }
    return found;
  }

  function openDisclosures(region, exceptKey) {
    var answered = exceptKey ? document.getElementById(exceptKey) : null;
    return disclosures(region).filter(function (d) {
      return d.el.open && !(answered && d.el.contains(answered));
    }).map(function (d) { return d.key; });
  }

  function reopen(region, keys) {
    if (!region || !keys.length) return;
    disclosures(region).forEach(function (d) { if (!d.el.open && keys.indexOf(d.key) !== -1) d.el.open = true; });
  }

  function wouldLose(kept, html) {
    var ids = Object.keys(kept);
    if (!ids.length) return false;
    var doc = new DOMParser().parseFromString(html, "text/html");
    return ids.some(function (id) { return !doc.getElementById(id); });
  }

  window.companionEntries = { keepInput: keepInput, putBack: putBack, wouldLose: wouldLose, showConflict: showConflict,
                             showRefused: showRefused, openDisclosures: openDisclosures, reopen: reopen };
})();
